import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { configErrorOf as errorOf, loadConfigFile as load } from '../support/config-file.ts';

describe('config: intelligence', () => {
  it('is on by default', () => {
    expect(loadConfig({ env: {}, isTty: false }).intelligence).toEqual({ enabled: true });
    expect(load({}).intelligence).toEqual({ enabled: true });
  });

  it('reads enabled', () => {
    expect(load({ intelligence: { enabled: false } }).intelligence).toEqual({ enabled: false });
    expect(load({ intelligence: { enabled: true } }).intelligence).toEqual({ enabled: true });
  });

  it('rejects a non-boolean, an unknown key and a non-object', () => {
    expect(errorOf({ intelligence: { enabled: 'no' } }).message).toContain('intelligence.enabled');
    expect(errorOf({ intelligence: { enable: false } }).message).toContain('intelligence.enable');
    expect(errorOf({ intelligence: true }).message).toContain('intelligence');
  });
});
