/**
 * The probe's HTTP/1.1 client (http1.exchange.ts, http1.response-parser.ts) against node:http's (llhttp) on the same
 * bytes: a raw TCP server on loopback answers each request with one response of a corpus (test/support/http1.corpus.ts:
 * hand-picked edge cases and a seeded generator), and both clients must agree on whether the response is accepted,
 * and on an accepted one's status, header fields as the probe exposes them and body bytes. Where the probe differs on
 * purpose, DELIBERATE says why (RFC 9110, 9112); such a case must still differ, so a stale entry fails too.
 */
import { createHash } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedCases, handPickedCases, type CorpusCase } from '../../../../../test/support/http1.corpus.ts';
import type { ProbeContext } from '../probe.contract.ts';
import { resolveHost } from '../probe.net.ts';
import { runProbeWithin } from '../probe.run.ts';
import { exchangeHttp1 } from './http1.exchange.ts';
import { HTTP_MAX_HEAD_BYTES } from './http1.response-parser.ts';

const SEED = 0x7c5e_2026;
const GENERATED = 400;
const CASES: CorpusCase[] = [...handPickedCases(), ...generatedCases(SEED, GENERATED)];

/** What a client made of one response. */
type Outcome =
  { accepted: true; status: number; headers: IncomingHttpHeaders; body: string } | { accepted: false; error: string };

/** Cases where the probe answers otherwise than node:http on purpose, by case name → the reason. */
const DELIBERATE = new Map<string, string>([
  // RFC 9110 §15: the first digit is the class, 1 to 5; llhttp reads any three digits.
  ['status 099', 'the probe refuses a status code outside 100–599'],
  // RFC 9112 §2.3: only HTTP/1.x uses this message syntax; llhttp takes any single-digit major and minor.
  ['HTTP/2.0 status line', 'the probe refuses a version other than HTTP/1.0 and HTTP/1.1'],
  // RFC 9110 §15.2.2: a server must not switch protocols unasked. node:http ends such an exchange without an answer;
  // the probe reports the status (the check is down with "HTTP 101"), which says more about the target.
  ['101 without upgrade requested', 'the probe reports a 101 the request did not ask for as the final status'],
]);

let server: Server;
let port = 0;
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };

async function serve(socket: Socket, c: CorpusCase, client: 'probe' | 'node'): Promise<void> {
  const bytes = Buffer.from(client === 'node' ? c.response.slice(0, c.complete) : c.response, 'latin1');
  const step = Math.ceil(bytes.length / c.pieces);
  for (let at = 0; at < bytes.length && !socket.destroyed; at += step) {
    socket.write(bytes.subarray(at, at + step));
    if (c.pieces > 1) await new Promise((r) => setTimeout(r, 2));
  }
  if (c.after === 'end') return void socket.end();
  // Late enough that what was written has been read: the reset is about the end, not lost bytes.
  await new Promise((r) => setTimeout(r, 30));
  socket.resetAndDestroy();
}

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    let received = '';
    const onData = (chunk: Buffer): void => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const [, client, index] = /^[A-Z]+ \/(probe|node)\/(\d+) /.exec(received)!;
      void serve(socket, CASES[Number(index)]!, client as 'probe' | 'node');
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const digest = (body: Buffer): string =>
  `${body.length} bytes ${createHash('sha256').update(body).digest('hex').slice(0, 16)}`;

function viaNode(index: number, c: CorpusCase): Promise<Outcome> {
  return new Promise((resolve) => {
    const settle = (o: Outcome): void => {
      clearTimeout(timer);
      resolve(o);
    };
    let responded = false;
    const refuse = (err: Error): void =>
      settle({ accepted: false, error: (err as { code?: string }).code ?? err.message });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/node/${index}`,
        method: c.method,
        agent: false,
        // The probe's own head limit, so the two compare on framing, not on a size setting.
        maxHeaderSize: HTTP_MAX_HEAD_BYTES,
        headers: { connection: 'close' },
      },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.once('end', () =>
          settle({
            accepted: true,
            status: res.statusCode!,
            headers: res.headers,
            body: digest(Buffer.concat(chunks)),
          }),
        );
        res.once('error', refuse);
        res.once('aborted', () => refuse(new Error('aborted')));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      settle({ accepted: false, error: 'timeout' });
    }, 3000);
    req.once('error', refuse);
    // Once a response has begun, its own end, error or abort settles it (the timer if none comes).
    req.once('close', () => {
      if (!responded) settle({ accepted: false, error: 'closed without a response' });
    });
    req.end();
  });
}

async function viaProbe(index: number, c: CorpusCase): Promise<Outcome> {
  let outcome: Outcome = { accepted: false, error: 'no outcome' };
  const url = new URL(`http://127.0.0.1:${port}/probe/${index}`);
  const observation = await runProbeWithin(ctx, { timeoutMs: 3000, timeoutMessage: 'timeout' }, async (run) => {
    const vetted = await resolveHost(url.hostname, ctx);
    const response = await exchangeHttp1(
      {
        url,
        vetted,
        method: c.method,
        headers: {},
        body: null,
        verifyTls: true,
        secureContext: undefined,
        keepBody: true,
        bodyCap: 16 * 1024 * 1024,
        userAgent: 'differential',
      },
      run,
    );
    outcome = { accepted: true, status: response.status, headers: response.headers, body: digest(response.body!) };
    return run.observation({ error: null });
  });
  if (observation.error)
    outcome = { accepted: false, error: `${observation.error.code}: ${observation.error.message}` };
  return outcome;
}

/** What the two must agree on: a refusal's wording is each client's own. */
function comparable(o: Outcome): unknown {
  return o.accepted ? { accepted: true, status: o.status, headers: o.headers, body: o.body } : { accepted: false };
}

describe('the probe HTTP/1.1 client against node:http', () => {
  const results: Array<{ c: CorpusCase; probe: Outcome; node: Outcome }> = [];

  beforeAll(async () => {
    // A few at a time: each case is two connections on loopback.
    for (let from = 0; from < CASES.length; from += 16) {
      const batch = CASES.slice(from, from + 16).map(async (c, i) => {
        const [probe, node] = await Promise.all([viaProbe(from + i, c), viaNode(from + i, c)]);
        results[from + i] = { c, probe, node };
      });
      await Promise.all(batch);
    }
  }, 120_000);

  it(`agrees on ${CASES.length} responses (${GENERATED} generated from seed ${SEED.toString(16)}), but for the deliberate differences`, () => {
    const disagreements = results
      .filter((r) => !DELIBERATE.has(r.c.name))
      .filter((r) => JSON.stringify(comparable(r.probe)) !== JSON.stringify(comparable(r.node)))
      .map((r) => ({ name: r.c.name, response: r.c.response.slice(0, 300), probe: r.probe, node: r.node }));
    expect(disagreements).toEqual([]);
  });

  it('still differs where a difference is deliberate', () => {
    for (const name of DELIBERATE.keys()) {
      const r = results.find((x) => x.c.name === name);
      expect(r, name).toBeDefined();
      expect(JSON.stringify(comparable(r!.probe)), name).not.toBe(JSON.stringify(comparable(r!.node)));
    }
  });

  it('covers accepted and refused responses of every kind', () => {
    const accepted = results.filter((r) => r.node.accepted).length;
    expect(accepted).toBeGreaterThan(CASES.length / 3);
    expect(CASES.length - accepted).toBeGreaterThan(CASES.length / 10);
  });
});
