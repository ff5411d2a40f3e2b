import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  generateCertificate,
  generateTestCa,
  startSilentTarget,
  startWebSocketTarget,
  type Pem,
  type TcpTarget,
  type WebSocketTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const ws = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_ws',
  type: 'websocket',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 2000, ...config },
});

let ca: Pem;
let server: WebSocketTarget;
let secure: WebSocketTarget;
let untrusted: WebSocketTarget;
let silent: TcpTarget;

beforeAll(async () => {
  ca = await generateTestCa();
  const names = ['localhost', '127.0.0.1'];
  const [valid, own] = await Promise.all([
    generateCertificate({ commonName: 'localhost', altNames: names, ca }),
    generateCertificate({ commonName: 'localhost', altNames: names }),
  ]);
  [server, secure, untrusted, silent] = await Promise.all([
    startWebSocketTarget(),
    startWebSocketTarget({ cert: valid }),
    startWebSocketTarget({ cert: own }),
    startSilentTarget(),
  ]);
});
afterAll(async () => {
  await Promise.all([server, secure, untrusted, silent].map((s) => s.close()));
});

describe('websocket probe', () => {
  it('upgrades, sends, reads the echo and is up, with per-phase timings and the configured headers', async () => {
    const obs = await registry.run(
      ws(`${server.url}/echo?x=1`, {
        send: 'ping from tocsin',
        expect: 'from tocsin',
        headers: { Origin: 'https://status.example', 'Sec-WebSocket-Protocol': 'chat' },
      }),
      ctx,
    );
    expect(obs.error).toBeNull();
    expect(obs).toMatchObject({
      status: 'up',
      http_status: 101,
      details: {
        upgrade_status: 101,
        protocol: 'chat',
        first_message: 'ping from tocsin',
        remote_address: '127.0.0.1',
      },
    });
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.download_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.tls_ms).toBeNull();
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/echo?x=1');
    expect(request.headers).toMatchObject({ origin: 'https://status.example', 'sec-websocket-version': '13' });
    expect(server.received).toContain('ping from tocsin');
  });

  it('is up after the upgrade alone when nothing is expected (no message awaited)', async () => {
    const obs = await registry.run(ws(`${server.url}/silent`), ctx);
    expect(obs).toMatchObject({ status: 'up', error: null });
    expect(obs.timings.download_ms).toBeNull();
  });

  it('answers a ping and assembles a fragmented first message; body assertions read it', async () => {
    const obs = await registry.run(
      ws(`${server.url}/ping-first`, { assertions: [{ type: 'body', matches: '^hello in parts$' }] }),
      ctx,
    );
    expect(obs.error).toBeNull();
    expect(obs.assertions).toMatchObject([{ type: 'body', passed: true }]);
    expect(obs.details!.first_message).toBe('hello in parts');
  });

  it('is down with assertion_failed when the first message does not match', async () => {
    const miss = await registry.run(ws(`${server.url}/greet`, { expect: 'goodbye' }), ctx);
    expect(miss).toMatchObject({ status: 'down', error: { code: 'assertion_failed' } });
    expect(miss.error!.message).toContain('hello from tocsin');
    const regex = await registry.run(
      ws(`${server.url}/greet`, { assertions: [{ type: 'body', matches: '^bye' }] }),
      ctx,
    );
    expect(regex).toMatchObject({ status: 'down', error: { code: 'assertion_failed' } });
  });

  it('is down with websocket_refused and the status when the upgrade is refused', async () => {
    const obs = await registry.run(ws(`${server.url}/forbidden`), ctx);
    expect(obs).toMatchObject({
      status: 'down',
      http_status: 403,
      error: { code: 'websocket_refused', message: 'upgrade refused: HTTP 403 Forbidden' },
      details: { upgrade_status: 403 },
    });
  });

  it('is down with a timeout naming the phase: no upgrade response, or no first message', async () => {
    const noUpgrade = await registry.run(ws(`ws://${silent.target}/`, { timeout_ms: 300 }), ctx);
    expect(noUpgrade).toMatchObject({ error: { code: 'timeout', message: 'no upgrade response within 300 ms' } });
    const noMessage = await registry.run(ws(`${server.url}/silent`, { timeout_ms: 300, expect: 'x' }), ctx);
    expect(noMessage).toMatchObject({ error: { code: 'timeout', message: 'no first message within 300 ms' } });
    expect(noMessage.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
  });

  it('is down with protocol_error on a wrong accept key or a close before the message', async () => {
    const bad = await registry.run(ws(`${server.url}/bad-accept`), ctx);
    expect(bad.error).toMatchObject({
      code: 'protocol_error',
      message: expect.stringContaining('Sec-WebSocket-Accept'),
    });
    const closed = await registry.run(ws(`${server.url}/close`, { expect: 'x' }), ctx);
    expect(closed.error).toMatchObject({ code: 'protocol_error', message: expect.stringContaining('1008 policy') });
  });

  it('connects over wss with a monitor CA, and refuses an untrusted certificate unless verify_tls is false', async () => {
    const obs = await registry.run(
      ws(`wss://localhost:${secure.port}/greet`, { ca_certificate: ca.cert, expect: 'hello' }),
      ctx,
    );
    expect(obs.error).toBeNull();
    expect(obs.timings.tls_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.dns_ms).toBeGreaterThanOrEqual(0);
    expect((await registry.run(ws(`${untrusted.url}/greet`), ctx)).error?.code).toBe('tls_invalid');
    const lenient = await registry.run(ws(`${untrusted.url}/greet`, { verify_tls: false, expect: 'hello' }), ctx);
    expect(lenient).toMatchObject({ status: 'up', error: null });
  });

  it('reports connect_refused, invalid_target and private_target', async () => {
    expect((await registry.run(ws(`ws://127.0.0.1:${await closedPort()}/`), ctx)).error?.code).toBe('connect_refused');
    expect((await registry.run(ws('http://example.com/'), ctx)).error?.code).toBe('invalid_target');
    const guarded = await registry.run(ws(`${server.url}/echo`), { ...ctx, allowPrivateTargets: false });
    expect(guarded.error?.code).toBe('private_target');
  });
});
