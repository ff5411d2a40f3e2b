import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stopConnectionsAfterLookup, type ConnectionRecorder } from '../../../../test/support/connections.ts';
import {
  startDnsServer,
  startHttpTarget,
  startTcpTarget,
  type DnsServer,
  type RunningTarget,
  type TcpTarget,
} from '../../../../test/support/targets/index.ts';
import { createDnsServerResolver } from '../../../platform/net/index.ts';
import { createProbeRegistry, type ProbeContext, type ProbeTarget, type ProbeType } from './index.ts';

const registry = createProbeRegistry();
let dns: DnsServer;
let loopback: TcpTarget;
let web: RunningTarget;
let strict: ProbeContext;
let recorder: ConnectionRecorder | undefined;

const probe = (type: ProbeType, target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: `mon_${type}`,
  type,
  target,
  interval_seconds: 60,
  config: { timeout_ms: 1000, ...config },
});

beforeAll(async () => {
  dns = await startDnsServer({});
  loopback = await startTcpTarget();
  web = await startHttpTarget((req, res) => {
    if (req.url === '/hop') res.writeHead(302, { location: `http://second.test:${web.port}/ok` }).end();
    else res.writeHead(200).end('ok');
  });
  const resolver = createDnsServerResolver([dns.resolver], 1000);
  strict = { now: () => Date.now(), allowPrivateTargets: false, resolver };
});
afterAll(async () => {
  await Promise.all([dns.close(), loopback.close(), web.close()]);
});
afterEach(() => {
  recorder?.stop();
  recorder = undefined;
});

describe('probes resolve once and connect to the vetted address (DNS rebinding)', () => {
  it.each([
    ['http', (host: string, port: number) => `http://${host}:${port}/`],
    ['tcp', (host: string, port: number) => `${host}:${port}`],
    ['tls', (host: string, port: number) => `${host}:${port}`],
    ['grpc', (host: string, port: number) => `${host}:${port}`],
    ['smtp', (host: string, port: number) => `${host}:${port}`],
    ['websocket', (host: string, port: number) => `ws://${host}:${port}/`],
    ['postgres', (host: string, port: number) => `${host}:${port}`],
    ['mysql', (host: string, port: number) => `${host}:${port}`],
    ['redis', (host: string, port: number) => `${host}:${port}`],
  ] as const)('%s: a name answering a public address, then 127.0.0.1, never reaches loopback', async (type, url) => {
    const name = `rebind-${type}.test`;
    dns.answerInTurn(name, 'A', [['8.8.8.8'], ['127.0.0.1']]);
    recorder = stopConnectionsAfterLookup();
    const obs = await registry.run(probe(type, url(name, loopback.port)), strict);
    recorder.stop();
    expect(obs.status).toBe('down');
    expect(obs.error?.code).not.toBe('private_target');
    expect(recorder.addresses.length).toBeGreaterThan(0);
    expect(new Set(recorder.addresses)).toEqual(new Set(['8.8.8.8']));
    expect(loopback.connections()).toBe(0);
  });

  it('a name whose first answer is loopback is refused before any connection', async () => {
    dns.answerInTurn('rebind-first.test', 'A', [['127.0.0.1'], ['8.8.8.8']]);
    recorder = stopConnectionsAfterLookup();
    const obs = await registry.run(probe('tcp', `rebind-first.test:${loopback.port}`), strict);
    expect(obs.error).toMatchObject({ code: 'private_target' });
    expect(obs.error?.message).toContain('rebind-first.test resolves to 127.0.0.1, a loopback address');
    expect(obs.error?.message).toContain('network.allow_private_targets');
    expect(recorder.addresses).toEqual([]);
  });

  it('every redirect hop is resolved (and vetted) through the same resolver', async () => {
    dns.answerInTurn('first.test', 'A', [['127.0.0.1']]);
    dns.answerInTurn('second.test', 'A', [['127.0.0.1']]);
    const open = { ...strict, allowPrivateTargets: true };
    const followed = await registry.run(probe('http', `http://first.test:${web.port}/hop`), open);
    expect(followed).toMatchObject({ status: 'up', details: { redirects: 1 } });
    dns.answerInTurn('first.test', 'A', [['127.0.0.1']]);
    const refused = await registry.run(probe('http', `http://first.test:${web.port}/hop`), strict);
    expect(refused.error).toMatchObject({ code: 'private_target' });
  });
});

describe('literal targets the WHATWG parser or getaddrinfo read as special-purpose addresses', () => {
  it.each([
    ['http', 'http://2130706433:PORT/'],
    ['http', 'http://0x7f.1:PORT/'],
    ['http', 'http://0177.0.0.1:PORT/'],
    ['http', 'http://127.1:PORT/'],
    ['http', 'http://[::7f00:1]:PORT/'],
    ['http', 'http://[::ffff:127.0.0.1]:PORT/'],
    ['http', 'http://[64:ff9b::7f00:1]:PORT/'],
    ['http', 'http://[2002:7f00:1::1]:PORT/'],
    ['tcp', '2130706433:PORT'],
    ['tcp', '0x7f.1:PORT'],
    ['tcp', '[::7f00:1]:PORT'],
    ['tcp', '[::ffff:0:7f00:1]:PORT'],
    ['tls', '127.1:PORT'],
    ['grpc', '[::ffff:7f00:1]:PORT'],
    ['smtp', '0x7f.1:PORT'],
    ['websocket', 'ws://2130706433:PORT/'],
    ['websocket', 'wss://[::ffff:127.0.0.1]:PORT/'],
    ['postgres', '2130706433:PORT'],
    ['mysql', '[::ffff:127.0.0.1]:PORT'],
    ['redis', '0x7f.1:PORT'],
  ] as const)('%s %s is refused', async (type, target) => {
    const obs = await registry.run(probe(type, target.replace('PORT', String(loopback.port))), strict);
    expect(obs.error).toMatchObject({ code: 'private_target' });
    expect(loopback.connections()).toBe(0);
  });

  it.each(['2130706433', '0x7f.1:53', '[::ffff:127.0.0.1]:53', '[::1]'])(
    'a dns monitor resolver %s is refused',
    async (resolver) => {
      const obs = await registry.run(probe('dns', 'example.test', { resolver }), strict);
      expect(obs.error).toMatchObject({ code: 'private_target' });
    },
  );
});
