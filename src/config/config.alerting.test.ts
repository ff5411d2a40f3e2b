import { describe, expect, it } from 'vitest';
import { loadConfigFile as load } from '../../test/support/config-file.ts';
import { ConfigError } from './index.ts';

describe('config: alerting keys', () => {
  it('defaults the alert delivery settings', () => {
    expect(load({}).alerting).toEqual({ leaseSeconds: 60, sendTimeoutMs: 15_000, pollMs: 100 });
  });

  it('reads alerting.lease_seconds, send_timeout_ms and poll_ms, and rejects unknown keys and bad values', () => {
    expect(load({ alerting: { lease_seconds: 5, send_timeout_ms: 2000, poll_ms: 50 } }).alerting).toEqual({
      leaseSeconds: 5,
      sendTimeoutMs: 2000,
      pollMs: 50,
    });
    expect(() => load({ alerting: { lease: 5 } })).toThrow(ConfigError);
    expect(() => load({ alerting: { lease_seconds: 1 } })).toThrow(/alerting.lease_seconds/);
  });

  it('accepts the Slack app client id and secret for chatapp1_channel only, without echoing the secret', () => {
    const c = load({
      providers: {
        chatapp1_channel: { base_url: 'http://127.0.0.1:1', client_id: '123.456', client_secret: 's3cr3t' },
      },
    });
    expect(c.providers.chatapp1_channel).toEqual({
      base_url: 'http://127.0.0.1:1',
      client_id: '123.456',
      client_secret: 's3cr3t',
    });
    expect(() => load({ providers: { oncall_pager1: { client_id: 'x' } } })).toThrow(
      /providers.oncall_pager1.client_id/,
    );
    let message = '';
    try {
      load({ providers: { chatapp1_channel: { client_secret: '' } } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/client_secret/);
  });
});
