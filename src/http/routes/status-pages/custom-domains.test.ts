import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.ts';
import { CustomDomainRouter, hostNameOf } from './custom-domains.ts';

const requestTo = (host: string | undefined, url: string) => ({ url, headers: { host } }) as unknown as IncomingMessage;

describe('custom domain routing', () => {
  it('reads the Host name without port, case or trailing dot', () => {
    expect(hostNameOf('Status.Example.com:8443')).toBe('status.example.com');
    expect(hostNameOf('status.example.com.')).toBe('status.example.com');
    expect(hostNameOf('[::1]:3000')).toBe('[::1]');
    expect(hostNameOf(undefined)).toBeNull();
  });

  it("rewrites a domain's requests onto its page and leaves other hosts alone", async () => {
    const clock = new ManualClock('2026-05-10T10:00:00Z');
    const router = new CustomDomainRouter({
      load: async () => new Map([['status.example.com', 'acme']]),
      clock,
      onError: () => {},
    });
    await router.refresh();
    const at = (url: string, host = 'status.example.com') => router.rewrite(requestTo(host, url));
    expect(at('/')).toBe('/status/acme');
    expect(at('/?ref=mail')).toBe('/status/acme?ref=mail');
    expect(at('/status/acme.json')).toBe('/status/acme.json');
    expect(at('/status/acme/access')).toBe('/status/acme/access');
    expect(at('/feed.atom?x=1')).toBe('/status/acme/feed.atom?x=1');
    expect(at('/status/acme-other')).toBe('/status/acme/status/acme-other');
    expect(at('/api/v1/monitors')).toBe('/status/acme/api/v1/monitors');
    expect(at('/api/v1/monitors', 'app.example.com')).toBe('/api/v1/monitors');
    expect(router.rewrite(requestTo(undefined, '/'))).toBe('/');
  });

  it('reads the domains again once they are older than 5 s (changes made through other processes)', async () => {
    const clock = new ManualClock('2026-05-10T10:00:00Z');
    let stored = new Map<string, string>();
    let reads = 0;
    const router = new CustomDomainRouter({
      load: async () => {
        reads++;
        return new Map(stored);
      },
      clock,
      onError: () => {},
    });
    await router.refresh();
    stored = new Map([['status.example.com', 'acme']]);
    expect(router.slugFor('status.example.com')).toBeNull();
    expect(reads).toBe(1);
    clock.advance(5_001);
    // The stale map answers this request and a read starts; the next request sees the new domain.
    expect(router.slugFor('status.example.com')).toBeNull();
    await expect.poll(() => router.slugFor('status.example.com')).toBe('acme');
    expect(reads).toBe(2);
  });
});
