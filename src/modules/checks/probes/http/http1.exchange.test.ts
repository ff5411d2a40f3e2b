/**
 * The http probe against a raw TCP server that answers exactly the bytes a test scripts, in pieces with pauses:
 * framings node:http servers never produce on their own (read to the close, 1xx first, torn responses, garbage).
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeRegistry, HTTP_BODY_CAP } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';
import { startStallMeter } from '../../../../../test/support/stall-meter.ts';

type Script = Array<string | { pause: number } | 'close'>;

const scripts = new Map<string, Script>();
const requests: string[] = [];
let server: Server;
let port = 0;

async function play(socket: Socket, script: Script): Promise<void> {
  for (const step of script) {
    if (socket.destroyed) return;
    if (step === 'close') return void socket.destroy();
    if (typeof step === 'string') socket.write(Buffer.from(step, 'latin1'));
    else await new Promise((r) => setTimeout(r, step.pause));
  }
  socket.end();
}

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      socket.removeAllListeners('data');
      requests.push(received);
      const path = received.split(' ')[1]!;
      void play(socket, scripts.get(path) ?? ['HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n']);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };

function check(path: string, script: Script, config: Record<string, unknown> = {}): ReturnType<typeof registry.run> {
  scripts.set(path, script);
  const target: ProbeTarget = {
    id: 'mon_1',
    type: 'http',
    target: `http://127.0.0.1:${port}${path}`,
    interval_seconds: 60,
    config: { timeout_ms: 2000, ...config },
  };
  return registry.run(target, ctx);
}

const bodyContains = (text: string) => ({ assertions: [{ type: 'body', contains: text }] });

describe('http probe on the wire', () => {
  it('reads a chunked body sent in pieces', async () => {
    const meter = startStallMeter();
    const obs = await check(
      '/chunked',
      [
        'HTTP/1.1 200 OK\r\nTransfer-',
        { pause: 20 },
        'Encoding: chunked\r\n\r\n4\r\nall \r',
        { pause: 20 },
        '\n4\r\ngood\r\n0\r\n\r\n',
        { pause: 1_500 }, // the server keeps the connection: the chunked framing, not the close, ends the check
      ],
      bodyContains('all good'),
    );
    expect(obs).toMatchObject({ status: 'up', http_status: 200, error: null });
    meter.stop();
    // Well before the close (a loaded machine stretches the 40 ms of pauses; 250 ms failed there), plus how long this
    // process could not run timers (test/support/stall-meter.ts).
    expect(obs.duration_ms).toBeLessThan(1_000 + meter.stalledMs());
    expect(obs.timings.download_ms).toBeGreaterThanOrEqual(15);
  });

  it('reads a body without a length to the end of the connection', async () => {
    const obs = await check(
      '/to-close',
      ['HTTP/1.0 200 OK\r\n\r\nstill ', { pause: 30 }, 'up'],
      bodyContains('still up'),
    );
    expect(obs).toMatchObject({ status: 'up', http_status: 200 });
  });

  it('skips 100 Continue and judges the final response', async () => {
    const obs = await check('/continue', ['HTTP/1.1 100 Continue\r\n\r\n', { pause: 20 }, 'HTTP/1.1 503 Busy\r\n\r\n']);
    expect(obs).toMatchObject({ status: 'down', http_status: 503, error: { code: 'http_status' } });
  });

  it('a connection closed before the body is complete is connect_reset', async () => {
    const obs = await check('/torn', ['HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten..', 'close']);
    expect(obs).toMatchObject({ status: 'down', http_status: null, error: { code: 'connect_reset' } });
    const silent = await check('/nothing', ['close']);
    expect(silent).toMatchObject({ status: 'down', error: { code: 'connect_reset', message: 'socket hang up' } });
  });

  it('something that is not HTTP is protocol_error', async () => {
    const obs = await check('/ssh', ['SSH-2.0-OpenSSH_9.6\r\n\r\n']);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'protocol_error' } });
    const badChunk = await check('/bad-chunk', ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nnope\r\n']);
    expect(badChunk).toMatchObject({ status: 'down', error: { code: 'protocol_error' } });
  });

  it('a response that stops half-way times out with time to first byte measured', async () => {
    const obs = await check('/stall', ['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc', { pause: 1000 }], {
      timeout_ms: 200,
    });
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
    expect(obs.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
  });

  it('a body of exactly the cap is whole; one byte more is cut', async () => {
    const body = 'a'.repeat(HTTP_BODY_CAP);
    const whole = await check('/cap', [`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`, body]);
    expect(whole).toMatchObject({ status: 'up' });
    expect(whole.details).not.toHaveProperty('body_truncated');
    const over = await check('/over', [`HTTP/1.1 200 OK\r\nContent-Length: ${body.length + 1}\r\n\r\n`, `${body}b`]);
    expect(over).toMatchObject({ status: 'up', details: { body_truncated: true } });
  });

  it('sends Host, Connection: close and the user headers; POST without a body says Content-Length 0', async () => {
    requests.length = 0;
    await check('/post', ['HTTP/1.1 204 No Content\r\n\r\n'], {
      method: 'POST',
      headers: { 'User-Agent': 'custom/1', 'X-Token': 'abc' },
    });
    const lines = requests[0]!.split('\r\n');
    expect(lines[0]).toBe('POST /post HTTP/1.1');
    expect(lines).toEqual(
      expect.arrayContaining([
        `host: 127.0.0.1:${port}`,
        'user-agent: custom/1',
        'x-token: abc',
        'connection: close',
        'content-length: 0',
      ]),
    );
    expect(lines.filter((l) => l.startsWith('user-agent'))).toHaveLength(1);
  });
});
