import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { configErrorOf as errorOf, loadConfigFile as load } from '../support/config-file.ts';

// How often the security grading looks for monitors due (its first look is this long after the start). The grading
// itself (`SecurityGradesRole`, `tickMs` from this value in src/main.ts) is shown to follow it end to end by
// test/browser/web-app.imports-intel.browser.test.ts, whose server looks every 5 s.
describe('config: intelligence.grading_poll_seconds', () => {
  it('is a minute by default', () => {
    expect(loadConfig({ env: {}, isTty: false }).securityGrading).toEqual({ pollSeconds: 60 });
    expect(load({ intelligence: { enabled: true } }).securityGrading).toEqual({ pollSeconds: 60 });
  });

  it('reads a value from 1 to 3600 seconds', () => {
    expect(load({ intelligence: { grading_poll_seconds: 1 } }).securityGrading).toEqual({ pollSeconds: 1 });
    expect(load({ intelligence: { grading_poll_seconds: 3600 } }).securityGrading).toEqual({ pollSeconds: 3600 });
    expect(load({ intelligence: { grading_poll_seconds: 5 } }).intelligence).toEqual({ enabled: true });
  });

  it('refuses 0, more than an hour, a fraction and a string, naming the key', () => {
    for (const value of [0, 3601, 1.5, '60']) {
      const message = errorOf({ intelligence: { grading_poll_seconds: value } }).message;
      expect(message, String(value)).toContain('intelligence.grading_poll_seconds');
      expect(message, String(value)).toContain('an integer from 1 to 3600');
    }
  });
});
