import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { startStallMeter } from '../support/stall-meter.ts';

const HEADERS_MS = 400;
const REQUEST_MS = 800;
const KEEP_ALIVE_MS = 400;
/** What Node may add past a time-out: its connection check runs every quarter of the shortest one. */
const SLACK_MS = 700;
// The upper bounds add how long this process could not run timers (test/support/stall-meter.ts): the server runs in
// it. They still tell the configured time-outs from Tocsin's defaults (10 s, 60 s, 72 s) on a quiet machine.

interface Observed {
  closedAfterMs: Promise<number>;
  received: () => string;
  /** The socket's error code, if it had one (ECONNRESET: the server reset it). */
  error: () => string | undefined;
  socket: Socket;
}

/** A raw client on a real socket: what it was sent back, and when the server closed it. */
function open(port: number): Observed {
  const socket = connect(port, '127.0.0.1');
  const started = performance.now();
  let received = '';
  let error: string | undefined;
  socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
  const closedAfterMs = new Promise<number>((resolve) =>
    socket.on('close', () => resolve(performance.now() - started)),
  );
  return { closedAfterMs, received: () => received, error: () => error, socket };
}

/** Writes `chunks` one every `everyMs` while the socket is open: a slow client that never finishes. */
function dribble(o: Observed, chunks: () => string, everyMs: number): void {
  const timer = setInterval(() => {
    if (!o.socket.destroyed && o.socket.writable) o.socket.write(chunks());
  }, everyMs);
  o.socket.on('close', () => clearInterval(timer));
}

/** Real sockets against configured http.*_timeout_ms (short here): slow or idle connections are closed. */
describe('HTTP server time-outs', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      configFile: {
        http: { headers_timeout_ms: HEADERS_MS, request_timeout_ms: REQUEST_MS, keep_alive_timeout_ms: KEEP_ALIVE_MS },
      },
    });
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.tocsin.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t?.close());

  it('waits up to 120 s for a plugin to load (Fastify gives up after 10 s: a start on a saturated host failed)', () => {
    expect(t.tocsin.app.initialConfig.pluginTimeout).toBe(120_000);
  });

  it('answers 408 and closes 200 clients that send their headers slowly, within the headers time-out', async () => {
    const meter = startStallMeter();
    const clients = Array.from({ length: 200 }, () => open(port));
    for (const c of clients) {
      c.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
      let n = 0;
      dribble(c, () => `X-Slow-${(n += 1)}: still coming\r\n`, 100);
    }
    const closed = await Promise.all(clients.map((c) => c.closedAfterMs));
    meter.stop();
    expect(Math.max(...closed)).toBeLessThan(HEADERS_MS + SLACK_MS + meter.stalledMs());
    expect(Math.min(...closed)).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    // The server answers 408 and closes; a client that keeps dribbling into the closed connection is reset, and Linux
    // drops what the client had not read yet, the 408 included, when the reset arrives first (under load, the client's
    // next write can run before its read). Such a client was still closed by the server (a reset only follows the
    // server's close); every other one read the 408, and most did.
    const read408 = clients.filter((c) => c.received().startsWith('HTTP/1.1 408'));
    const reset = clients.filter((c) => c.received() === '' && c.error() === 'ECONNRESET');
    expect(
      clients.filter((c) => !read408.includes(c) && !reset.includes(c)).map((c) => [c.received(), c.error()]),
    ).toEqual([]);
    expect(read408.length).toBeGreaterThan(clients.length / 2);
  });

  it('closes a client that connects and sends nothing', async () => {
    const meter = startStallMeter();
    const silent = open(port);
    const after = await silent.closedAfterMs;
    meter.stop();
    expect(after).toBeLessThan(HEADERS_MS + SLACK_MS + meter.stalledMs());
  });

  it('closes a client whose body never ends, within the request time-out', async () => {
    const meter = startStallMeter();
    const slow = open(port);
    slow.socket.write(
      'POST /api/v1/auth/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    dribble(slow, () => ' ', 100);
    const after = await slow.closedAfterMs;
    meter.stop();
    expect(after).toBeGreaterThanOrEqual(REQUEST_MS - 50);
    expect(after).toBeLessThan(REQUEST_MS + SLACK_MS + meter.stalledMs());
  });

  it('closes an idle kept-alive connection after the keep-alive time-out', async () => {
    const meter = startStallMeter();
    const idle = open(port);
    idle.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const after = await idle.closedAfterMs;
    meter.stop();
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);
    // Node keeps the socket a second past the advertised time-out, so a client reusing it at the last moment does
    // not race the close.
    expect(after).toBeGreaterThanOrEqual(KEEP_ALIVE_MS);
    expect(after).toBeLessThan(KEEP_ALIVE_MS + 1000 + SLACK_MS + meter.stalledMs());
  });
});
