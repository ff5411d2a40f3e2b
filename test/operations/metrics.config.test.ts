import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { configErrorOf as errorOf, loadConfigFile as load } from '../support/config-file.ts';

describe('config: metrics', () => {
  it('is off and without a token by default', () => {
    expect(loadConfig({ env: {}, isTty: false }).metrics).toEqual({ enabled: false, bearerToken: null });
    expect(load({}).metrics).toEqual({ enabled: false, bearerToken: null });
  });

  it('reads enabled and bearer_token', () => {
    const token = 'a'.repeat(16);
    expect(load({ metrics: { enabled: true, bearer_token: token } }).metrics).toEqual({
      enabled: true,
      bearerToken: token,
    });
    expect(load({ metrics: { enabled: 'false' } }).metrics.enabled).toBe(false);
  });

  it('names the key of a bad value and never echoes a token', () => {
    expect(errorOf({ metrics: true }).key).toBe('metrics');
    expect(errorOf({ metrics: { enabled: 'yes' } }).key).toBe('metrics.enabled');
    expect(errorOf({ metrics: { bearer: 'x' } }).key).toBe('metrics.bearer');
    for (const token of ['short-token-123', 'has a space inside it', 'x'.repeat(513)]) {
      const err = errorOf({ metrics: { enabled: true, bearer_token: token } });
      expect(err.key).toBe('metrics.bearer_token');
      expect(err.message).not.toContain(token.slice(0, 10));
    }
    expect(errorOf({ metrics: { bearer_token: 42 } }).key).toBe('metrics.bearer_token');
  });
});
