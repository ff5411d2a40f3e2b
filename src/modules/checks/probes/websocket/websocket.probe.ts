/**
 * WebSocket probe (DECISIONS §20): resolve and vet the URL's host → connect to that address (TLS for wss://, the
 * URL's name as server name) → the RFC 6455 upgrade → optionally send a text message and read the first message →
 * close. Written on the socket (not undici's WebSocket) so the address is the vetted one and a refused upgrade shows
 * its HTTP status. Timings: `connect_ms`, `tls_ms`, `ttfb_ms` (request → upgrade response), `download_ms` (→ the first
 * message, when one is awaited).
 */
import { isIP, type Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { connectTcpTo, connectTlsTo, type VettedHost } from '../../../../platform/net/index.ts';
import { evaluateAssertions } from '../../assertions/index.ts';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { num, ProbeFailure, resolveHost, round } from '../probe.net.ts';
import { runProbeWithin, type ProbeRun } from '../probe.run.ts';
import { createSecureContextCache, type SecureContextFor } from '../secure-context.cache.ts';
import {
  acceptKeyOf,
  clientFrame,
  FrameReader,
  newKey,
  OP_CLOSE,
  OP_PONG,
  OP_TEXT,
  type CloseFrame,
  type DataMessage,
} from './websocket.frames.ts';

/** The first message is read up to this many bytes (assertions see that much). */
export const WEBSOCKET_MESSAGE_CAP = 1024 * 1024;
const MAX_HEAD_BYTES = 16 * 1024;
const USER_AGENT = 'Tocsin/0.1 (+uptime monitoring)';
/** Headers the handshake sets itself; config.headers may not replace them (the validation says so too). */
export const WEBSOCKET_RESERVED_HEADERS = [
  'host',
  'upgrade',
  'connection',
  'sec-websocket-key',
  'sec-websocket-version',
  'sec-websocket-extensions',
  'content-length',
  'transfer-encoding',
];

interface WsConfig {
  timeoutMs: number;
  headers: Record<string, string>;
  send: string | null;
  expect: string | null;
  verify: boolean;
  ca: string | null;
  assertions: Array<Record<string, unknown>>;
}

function readConfig(c: Record<string, unknown>): WsConfig {
  const headers: Record<string, string> = {};
  if (c.headers && typeof c.headers === 'object') {
    for (const [k, v] of Object.entries(c.headers as Record<string, unknown>))
      if (typeof v === 'string' && !WEBSOCKET_RESERVED_HEADERS.includes(k.toLowerCase())) headers[k.toLowerCase()] = v;
  }
  return {
    timeoutMs: num(c.timeout_ms, 10_000),
    headers,
    send: typeof c.send === 'string' ? c.send : null,
    expect: typeof c.expect === 'string' ? c.expect : null,
    verify: c.verify_tls !== false,
    ca: typeof c.ca_certificate === 'string' ? c.ca_certificate : null,
    assertions: Array.isArray(c.assertions) ? (c.assertions as Array<Record<string, unknown>>) : [],
  };
}

type Phase = 'connection' | 'upgrade response' | 'first message';

export function createWebsocketProbe(secureContextFor: SecureContextFor = createSecureContextCache()): Probe {
  return function websocketProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const cfg = readConfig(target.config);
    let phase: Phase = 'connection';
    let socket: Socket | undefined;
    // Read when the timeout fires: the message names what the server left unanswered.
    const options = {
      timeoutMs: cfg.timeoutMs,
      get timeoutMessage() {
        return `no ${phase} within ${cfg.timeoutMs} ms`;
      },
    };
    return runProbeWithin(ctx, options, async (run) => {
      try {
        const url = wsUrl(target.target);
        const secure = url.protocol === 'wss:';
        const host = url.hostname.replace(/^\[|\]$/g, '');
        const port = url.port ? Number(url.port) : secure ? 443 : 80;
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        const secureContext = secure ? secureContextFor([ctx.tlsCa, cfg.ca]) : undefined;
        socket = await run.race(open(vetted, port, host, secure ? { secureContext, verify: cfg.verify } : null, run));
        const details: Record<string, unknown> = { remote_address: socket.remoteAddress ?? null };
        run.partial.details = details;
        const session = new Session(socket);

        phase = 'upgrade response';
        const key = newKey();
        const tUpgrade = performance.now();
        socket.write(upgradeRequest(url, key, cfg.headers));
        const head = await run.race(session.head);
        run.timings.ttfb_ms = round(performance.now() - tUpgrade);
        run.partial.http_status = head.status;
        details.upgrade_status = head.status;
        if (head.status !== 101) {
          throw new ProbeFailure('websocket_refused', `upgrade refused: HTTP ${head.status} ${head.reason}`.trim());
        }
        checkUpgrade(head, key);
        details.protocol = head.headers.get('sec-websocket-protocol') ?? null;

        if (cfg.send !== null) socket.write(clientFrame(OP_TEXT, Buffer.from(cfg.send, 'utf8')));
        let message: DataMessage | null = null;
        if (cfg.expect !== null || cfg.assertions.some((a) => a.type === 'body')) {
          phase = 'first message';
          const tMessage = performance.now();
          message = await run.race(session.message);
          run.timings.download_ms = round(performance.now() - tMessage);
          details.first_message = text(message).slice(0, 1024);
        }
        const duration_ms = run.elapsed();
        // A polite close; the socket is destroyed right after (the server's close frame tells the check nothing).
        socket.end(clientFrame(OP_CLOSE, Buffer.from([0x03, 0xe8])));
        return run.observation({ details, duration_ms, http_status: 101, ...verdict(cfg, message, duration_ms) });
      } finally {
        socket?.destroy();
      }
    });
  };
}

function wsUrl(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new ProbeFailure('invalid_target', `Not a valid URL: ${target}`);
  }
  if ((url.protocol !== 'ws:' && url.protocol !== 'wss:') || url.hostname === '')
    throw new ProbeFailure('invalid_target', `Not a ws:// or wss:// URL: ${target}`);
  return url;
}

function open(
  vetted: VettedHost,
  port: number,
  host: string,
  tls: { secureContext: SecureContext | undefined; verify: boolean } | null,
  run: ProbeRun,
): Promise<Socket> {
  const tStart = performance.now();
  let tConnect = 0;
  return new Promise<Socket>((resolve, reject) => {
    const s = tls
      ? connectTlsTo(vetted, port, {
          servername: isIP(host) ? undefined : host,
          rejectUnauthorized: tls.verify,
          secureContext: tls.secureContext,
          ALPNProtocols: ['http/1.1'],
        })
      : connectTcpTo(vetted, port);
    run.onAbort(() => s.destroy());
    s.once('connect', () => {
      tConnect = performance.now();
      run.timings.connect_ms = round(tConnect - tStart);
      if (!tls) done();
    });
    if (tls)
      s.once('secureConnect', () => {
        run.timings.tls_ms = round(performance.now() - (tConnect || tStart));
        done();
      });
    s.once('error', reject);
    function done(): void {
      s.off('error', reject);
      resolve(s);
    }
  });
}

function upgradeRequest(url: URL, key: string, headers: Record<string, string>): string {
  const fields = new Map<string, string>([
    ['host', url.host],
    ['upgrade', 'websocket'],
    ['connection', 'Upgrade'],
    ['sec-websocket-key', key],
    ['sec-websocket-version', '13'],
    ['user-agent', USER_AGENT],
  ]);
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(value)) throw new ProbeFailure('invalid_target', `Invalid character in header "${name}"`);
    fields.set(name, value);
  }
  let head = `GET ${url.pathname}${url.search} HTTP/1.1\r\n`;
  for (const [name, value] of fields) head += `${name}: ${value}\r\n`;
  return `${head}\r\n`;
}

interface Head {
  status: number;
  reason: string;
  headers: Map<string, string>;
}

/** RFC 6455 §4.1: the server's 101 must name the upgrade and answer the key. */
function checkUpgrade(head: Head, key: string): void {
  if (head.headers.get('upgrade')?.toLowerCase() !== 'websocket')
    throw new ProbeFailure('protocol_error', 'the 101 response does not upgrade to websocket');
  if (!/(^|,)\s*upgrade\s*(,|$)/i.test(head.headers.get('connection') ?? ''))
    throw new ProbeFailure('protocol_error', 'the 101 response lacks Connection: Upgrade');
  if (head.headers.get('sec-websocket-accept') !== acceptKeyOf(key))
    throw new ProbeFailure('protocol_error', 'the 101 response has a wrong Sec-WebSocket-Accept');
}

function text(message: DataMessage): string {
  return message.data.toString(message.binary ? 'latin1' : 'utf8');
}

/** `expect` (a substring of the first message), then `response_time` and `body` assertions (body = that message). */
function verdict(
  cfg: WsConfig,
  message: DataMessage | null,
  duration_ms: number,
): { error: ProbeError | null; assertions: Observation['assertions'] } {
  const body = message ? text(message) : undefined;
  if (cfg.expect !== null && !body!.includes(cfg.expect)) {
    const actual = JSON.stringify(body!.slice(0, 200));
    return {
      error: {
        code: 'assertion_failed',
        message: `the first message does not contain the expected text (actual: ${actual})`,
      },
      assertions: [],
    };
  }
  if (cfg.assertions.length === 0) return { error: null, assertions: [] };
  const assertions = evaluateAssertions(cfg.assertions, { status: 101, headers: {}, body, duration_ms });
  const failed = assertions.find((a) => !a.passed);
  const error: ProbeError | null = failed
    ? {
        code: 'assertion_failed',
        message: `${failed.type} assertion failed (actual: ${JSON.stringify(failed.actual)})`,
      }
    : null;
  return { error, assertions };
}

/** The bytes of one connection: the upgrade response's head, then frames. */
class Session {
  readonly head: Promise<Head>;
  readonly message: Promise<DataMessage>;
  private buffer = '';
  private frames: FrameReader | null = null;
  private resolveHead!: (head: Head) => void;
  private resolveMessage!: (message: DataMessage) => void;
  private rejectAll!: (err: Error) => void;

  constructor(socket: Socket) {
    let rejectHead!: (err: Error) => void;
    let rejectMessage!: (err: Error) => void;
    this.head = new Promise<Head>((resolve, reject) => {
      this.resolveHead = resolve;
      rejectHead = reject;
    });
    this.message = new Promise<DataMessage>((resolve, reject) => {
      this.resolveMessage = resolve;
      rejectMessage = reject;
    });
    // Awaited only when the check gets there; an earlier failure is reported by what is awaited first.
    this.message.catch(() => undefined);
    this.rejectAll = (err) => {
      rejectHead(err);
      rejectMessage(err);
    };
    socket.on('data', (chunk: Buffer) => {
      try {
        this.push(chunk, socket);
      } catch (err) {
        this.rejectAll(err as Error);
        socket.destroy();
      }
    });
    socket.on('error', (err) => this.rejectAll(err));
    socket.on('close', () =>
      this.rejectAll(new ProbeFailure('protocol_error', 'the server closed the connection without a message')),
    );
  }

  private push(chunk: Buffer, socket: Socket): void {
    if (this.frames) {
      this.frames.push(chunk);
      return;
    }
    this.buffer += chunk.toString('latin1');
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.buffer.length > MAX_HEAD_BYTES)
        throw new ProbeFailure('protocol_error', 'an oversized upgrade response');
      return;
    }
    const head = parseHead(this.buffer.slice(0, end));
    const rest = Buffer.from(this.buffer.slice(end + 4), 'latin1');
    this.buffer = '';
    this.frames = new FrameReader(
      {
        message: (m) => this.resolveMessage(m),
        close: (frame: CloseFrame) =>
          this.rejectAll(
            new ProbeFailure(
              'protocol_error',
              `the server closed the WebSocket (${frame.code ?? 'no code'}${frame.reason ? ` ${frame.reason}` : ''}) before a message`,
            ),
          ),
        ping: (payload) => socket.write(clientFrame(OP_PONG, payload)),
      },
      WEBSOCKET_MESSAGE_CAP,
    );
    this.resolveHead(head);
    if (head.status === 101 && rest.length > 0) this.frames.push(rest);
  }
}

function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
  if (!m)
    throw new ProbeFailure('protocol_error', `not an HTTP response: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i <= 0) throw new ProbeFailure('protocol_error', 'a malformed header line in the upgrade response');
    const name = line.slice(0, i).trim().toLowerCase();
    const value = line.slice(i + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  return { status: Number(m[1]), reason: (m[2] ?? '').slice(0, 100), headers };
}
