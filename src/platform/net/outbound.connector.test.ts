import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stopConnectionsAfterLookup, type ConnectionRecorder } from '../../../test/support/connections.ts';
import {
  startDnsServer,
  startHttpTarget,
  type DnsServer,
  type RunningTarget,
} from '../../../test/support/targets/index.ts';
import { PrivateTargetError, createDnsServerResolver, createOutboundConnector, type NetworkPolicy } from './index.ts';
import { startStallMeter } from '../../../test/support/stall-meter.ts';

let dns: DnsServer;
let strict: NetworkPolicy;
let open: NetworkPolicy;
let target: RunningTarget;
let recorder: ConnectionRecorder | undefined;
const seen: string[] = [];

beforeAll(async () => {
  dns = await startDnsServer({ 'loopback.test': { A: ['127.0.0.1'] }, 'next.test': { A: ['127.0.0.1'] } });
  const resolver = createDnsServerResolver([dns.resolver], 1000);
  strict = { allowPrivateTargets: false, resolver };
  open = { allowPrivateTargets: true, resolver };
  target = await startHttpTarget((req, res) => {
    seen.push(`${req.method} ${req.headers.host} ${req.url} ${req.headers.authorization ?? '-'}`);
    const to = new URL(req.url!, 'http://x').searchParams.get('to');
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(200).end(req.url);
  });
});
afterAll(async () => {
  await target.close();
  await dns.close();
});
afterEach(() => {
  recorder?.stop();
  recorder = undefined;
  seen.length = 0;
});

describe('the outbound connector', () => {
  it('refuses a blocked host before connecting: a name resolving to loopback, and a literal (no lookup for those)', async () => {
    const connector = createOutboundConnector(strict);
    recorder = stopConnectionsAfterLookup();
    for (const url of [`http://loopback.test:${target.port}/`, `${target.url}/`, 'http://2130706433/']) {
      const error = await connector.fetch(url).catch((err: unknown) => err as TypeError);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as TypeError).cause).toBeInstanceOf(PrivateTargetError);
    }
    await expect(connector.connectTcp('loopback.test', target.port)).rejects.toBeInstanceOf(PrivateTargetError);
    await expect(connector.connectTls('127.0.0.1', target.port, {})).rejects.toBeInstanceOf(PrivateTargetError);
    expect(recorder.addresses).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('a pinned connector sends every request and socket of its life to the address vetted first (DNS rebinding)', async () => {
    dns.answerInTurn('rebind.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    const connector = createOutboundConnector(strict).pinned();
    expect((await connector.vet('rebind.test')).address).toBe('8.8.8.8');
    recorder = stopConnectionsAfterLookup();
    await expect(connector.fetch('http://rebind.test:8080/')).rejects.toThrow();
    await expect(
      connector.fetch('https://rebind.test:8443/', { tls: { rejectUnauthorized: false } }),
    ).rejects.toThrow();
    const tcp = await connector.connectTcp('rebind.test', 8080);
    await new Promise((resolve) => tcp.once('error', resolve));
    const tls = await connector.connectTls('rebind.test', 443, { servername: 'rebind.test' });
    await new Promise((resolve) => tls.once('error', resolve));
    expect(recorder.addresses).toEqual(['8.8.8.8', '8.8.8.8', '8.8.8.8', '8.8.8.8']);
    expect(dns.queries()).toBeGreaterThan(0);
  });

  it('without pinning, the fake DNS really rebinds: a second vetting sees the blocked address and refuses', async () => {
    dns.answerInTurn('rebind-again.test', 'A', [['8.8.8.8'], ['127.0.0.1']]);
    const connector = createOutboundConnector(strict);
    expect((await connector.vet('rebind-again.test')).address).toBe('8.8.8.8');
    await expect(connector.vet('rebind-again.test')).rejects.toBeInstanceOf(PrivateTargetError);
  });

  it('connects to the vetted address with the URL name as Host, and vets every redirect hop', async () => {
    const connector = createOutboundConnector(open);
    const hop2 = encodeURIComponent(`http://next.test:${target.port}/end`);
    const res = await connector.fetch(`http://loopback.test:${target.port}/start?to=${hop2}`, {
      method: 'POST',
      body: 'x',
      headers: { authorization: 'Bearer t' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('/end');
    // Another origin: the 302 after a POST is a GET, and the credentials stay behind.
    expect(seen).toEqual([
      `POST loopback.test:${target.port} /start?to=${hop2} Bearer t`,
      `GET next.test:${target.port} /end -`,
    ]);
    // A hop to a name the connector's resolver does not know fails there (it is not left to the system's).
    const lost = encodeURIComponent(`http://missing.test:${target.port}/`);
    const error = await connector.fetch(`${target.url}/?to=${lost}`).catch((err: unknown) => err as TypeError);
    expect((error as TypeError).cause).toMatchObject({ code: 'ENOTFOUND' });
    // Manual redirects come back as they are (the webhook senders and grading follow none).
    const manual = await connector.fetch(`${target.url}/?to=http://10.0.0.1/`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([302, 'http://10.0.0.1/']);
  });

  it("gives up with the caller's signal while the resolver is silent", async () => {
    dns.setSilent(true);
    try {
      const slow = createOutboundConnector({ ...strict, resolver: createDnsServerResolver([dns.resolver], 5000) });
      const meter = startStallMeter();
      const started = performance.now();
      await expect(slow.fetch('http://silent.test/', { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({
        name: 'TimeoutError',
      });
      meter.stop();
      // Far below the resolver's 5 s, plus how long this process could not run timers (a loaded machine).
      expect(performance.now() - started).toBeLessThan(2000 + meter.stalledMs());
    } finally {
      dns.setSilent(false);
    }
  });

  it('trusted() allows private addresses (operator-configured endpoints) and still resolves through the policy', async () => {
    const trusted = createOutboundConnector(strict).trusted();
    const res = await trusted.fetch(`http://loopback.test:${target.port}/hello`);
    expect(await res.text()).toBe('/hello');
  });
});
