import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeRegistry } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };
const udp = (target: string, config: Record<string, unknown> = {}): ProbeTarget => ({
  id: 'mon_udp',
  type: 'udp',
  target,
  interval_seconds: 60,
  config: { timeout_ms: 1000, ...config },
});

/** An echo server that answers "echo:<datagram>", stays silent on "quiet", and counts what it got. */
async function startEcho(
  type: 'udp4' | 'udp6',
  address: string,
): Promise<{ socket: Socket; port: number; got: Buffer[] }> {
  const socket = createSocket(type);
  const got: Buffer[] = [];
  socket.on('message', (msg, rinfo) => {
    got.push(msg);
    if (msg.toString() === 'quiet') return;
    socket.send(Buffer.concat([Buffer.from('echo:'), msg]), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, address, resolve));
  return { socket, port: socket.address().port, got };
}

/** A UDP port nothing listens on (bound, read, closed). */
async function closedUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', resolve));
  const port = s.address().port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let echo: Awaited<ReturnType<typeof startEcho>>;
let echo6: Awaited<ReturnType<typeof startEcho>> | null = null;
beforeAll(async () => {
  echo = await startEcho('udp4', '127.0.0.1');
  echo6 = await startEcho('udp6', '::1').catch(() => null);
});
afterAll(() => {
  echo.socket.close();
  echo6?.socket.close();
});

describe('udp probe', () => {
  it('is up when the reply contains what is expected', async () => {
    const obs = await registry.run(udp(`127.0.0.1:${echo.port}`, { send: 'ping', expect: 'echo:ping' }), ctx);
    expect(obs).toMatchObject({
      status: 'up',
      error: null,
      details: { remote_address: '127.0.0.1', sent_bytes: 4, reply_bytes: 9, reply_excerpt: 'echo:ping' },
    });
    expect(obs.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
    expect(echo.got.at(-1)?.toString()).toBe('ping');
  });

  it('sends bytes written as hex or base64', async () => {
    const hex = await registry.run(udp(`127.0.0.1:${echo.port}`, { send: '1b 00 ff', send_encoding: 'hex' }), ctx);
    expect(hex.status).toBe('up');
    expect(echo.got.at(-1)).toEqual(Buffer.from([0x1b, 0x00, 0xff]));
    expect(hex.details?.reply_hex).toBe(Buffer.from('echo:').toString('hex') + '1b00ff');
    const b64 = await registry.run(udp(`127.0.0.1:${echo.port}`, { send: 'aGk=', send_encoding: 'base64' }), ctx);
    expect(b64.details?.reply_excerpt).toBe('echo:hi');
  });

  it('is down with unexpected_response when the reply does not match', async () => {
    const obs = await registry.run(udp(`127.0.0.1:${echo.port}`, { send: 'ping', expect: 'pong' }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'unexpected_response' } });
  });

  it('judges body and response_time assertions on the reply', async () => {
    const ok = await registry.run(
      udp(`127.0.0.1:${echo.port}`, {
        send: 'v42',
        assertions: [
          { type: 'body', matches: '^echo:v\\d+$' },
          { type: 'response_time', less_than: 900 },
        ],
      }),
      ctx,
    );
    expect(ok.status).toBe('up');
    expect(ok.assertions.map((a) => a.passed)).toEqual([true, true]);
    const bad = await registry.run(
      udp(`127.0.0.1:${echo.port}`, { send: 'v42', assertions: [{ type: 'body', not_contains: 'v42' }] }),
      ctx,
    );
    expect(bad).toMatchObject({ status: 'down', error: { code: 'assertion_failed' } });
  });

  it('is down with timeout when no reply comes', async () => {
    const obs = await registry.run(udp(`127.0.0.1:${echo.port}`, { send: 'quiet', timeout_ms: 300 }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
    expect(obs.duration_ms).toBeGreaterThanOrEqual(290);
  });

  it('is down with connect_refused on ICMP port unreachable', async () => {
    const obs = await registry.run(udp(`127.0.0.1:${await closedUdpPort()}`, { send: 'x' }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'connect_refused' } });
  });

  it('speaks IPv6 to [::1]:port', async (test) => {
    if (!echo6) test.skip('no IPv6 loopback on this machine');
    const obs = await registry.run(udp(`[::1]:${echo6!.port}`, { send: 'six', expect: 'echo:six' }), ctx);
    expect(obs).toMatchObject({ status: 'up', details: { remote_address: '::1' } });
  });

  it('refuses private targets when not allowed', async () => {
    const before = echo.got.length;
    const obs = await registry.run(udp(`127.0.0.1:${echo.port}`), { ...ctx, allowPrivateTargets: false });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'private_target' } });
    expect(echo.got.length).toBe(before);
  });

  it.each(['127.0.0.1', 'x:0', 'a b:53'])('rejects %j as invalid_target', async (t) => {
    expect((await registry.run(udp(t), ctx)).error?.code).toBe('invalid_target');
  });
});
