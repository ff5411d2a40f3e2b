/**
 * One HTTP/1.1 request on a fresh connection, written and read on the socket itself: connect to the vetted address
 * (TLS with the URL's name as server name), send the request, parse the response (http1.response-parser.ts) and read
 * its body up to a cap. Why not node:http: a check needs none of its agent, streams or keep-alive machinery, and the
 * probe bench measured them at about a third of a check's client CPU; the timings come from the socket's own events.
 */
import { isIP, type Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { connectTcpTo, connectTlsTo, type VettedHost } from '../../../../platform/net/index.ts';
import type { ProbeTimings } from '../probe.contract.ts';
import { ProbeFailure, round } from '../probe.net.ts';
import type { ProbeRun } from '../probe.run.ts';
import { ResponseParser, type ResponseHead } from './http1.response-parser.ts';

export interface Http1Request {
  url: URL;
  /** Where to connect (its vetted address); the URL's host stays the Host header and the TLS server name. */
  vetted: VettedHost;
  method: string;
  /** Lower-case names; they replace the defaults (host, user-agent, accept, connection) of the same name. */
  headers: Record<string, string>;
  body: string | null;
  verifyTls: boolean;
  secureContext: SecureContext | undefined;
  /** Keep the body (an assertion or the content digest reads it); otherwise it is only counted. */
  keepBody: boolean;
  /** Bytes read at most: the response is cut there (`truncated`). */
  bodyCap: number;
  userAgent: string;
}

export interface Http1Response extends ResponseHead {
  body: Buffer | undefined;
  truncated: boolean;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
/** Methods a request without a body is sent plainly for; other methods say `content-length: 0`, as node:http does. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** The request's bytes; a header or method that cannot be sent is the check's `invalid_target`. */
export function serializeRequest(request: Http1Request): Buffer {
  const { url, method, body } = request;
  if (!TOKEN.test(method)) throw new ProbeFailure('invalid_target', `Invalid HTTP method ${JSON.stringify(method)}`);
  const fields = new Map<string, string>([
    ['host', url.host],
    ['user-agent', request.userAgent],
    ['accept', '*/*'],
  ]);
  for (const [name, value] of Object.entries(request.headers)) fields.set(name, value);
  if (!fields.has('connection')) fields.set('connection', 'close');
  if (body !== null) fields.set('content-length', String(Buffer.byteLength(body)));
  else if (!fields.has('content-length') && !BODILESS.has(method)) fields.set('content-length', '0');
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  for (const [name, value] of fields) {
    if (!TOKEN.test(name)) throw new ProbeFailure('invalid_target', `Invalid header name ${JSON.stringify(name)}`);
    if (BAD_VALUE.test(value)) throw new ProbeFailure('invalid_target', `Invalid character in header "${name}"`);
    head += `${name}: ${value}\r\n`;
  }
  head += '\r\n';
  const headBytes = Buffer.from(head, 'latin1');
  return body === null ? headBytes : Buffer.concat([headBytes, Buffer.from(body, 'utf8')]);
}

function connectionLost(message: string): Error {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

/**
 * Sends `request` and resolves with the response once it is complete (or cut at the cap). Fills `run.timings`:
 * connect and TLS from the socket's events, time to first byte from the connection being ready to the response
 * head, download from the head to the end. An abort of `run` destroys the socket, which fails the exchange. `bytes`:
 * the request as `serializeRequest` makes it, when the caller kept it from an earlier check.
 */
export function exchangeHttp1(
  request: Http1Request,
  run: ProbeRun,
  bytes: Buffer = serializeRequest(request),
): Promise<Http1Response> {
  const https = request.url.protocol === 'https:';
  const port = request.url.port ? Number(request.url.port) : https ? 443 : 80;
  const hostname = request.url.hostname.replace(/^\[|\]$/g, '');
  const socket: Socket = https
    ? connectTlsTo(request.vetted, port, {
        servername: isIP(hostname) ? undefined : hostname,
        rejectUnauthorized: request.verifyTls,
        secureContext: request.secureContext,
      })
    : connectTcpTo(request.vetted, port);
  run.onAbort((reason) => socket.destroy(reason));
  socket.write(bytes);
  return new Promise<Http1Response>((resolve, reject) => {
    const timings: ProbeTimings = run.timings;
    const tStart = performance.now();
    let tConnect = 0;
    let tSecure = 0;
    let tHead = 0;
    let head: ResponseHead | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;

    const fail = (err: unknown): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const succeed = (truncated: boolean): void => {
      if (settled) return;
      settled = true;
      timings.download_ms = round(performance.now() - tHead);
      const body = request.keepBody ? (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) : undefined;
      resolve({ status: head!.status, headers: head!.headers, body, truncated });
      // The descriptor is closed at once: with the response read whole, closing sends our FIN as end() would, without
      // a shutdown call and a 'finish' turn first (a cut response leaves bytes unread, and the peer gets a reset).
      socket.destroy();
    };
    const parser = new ResponseParser(
      {
        head: (h) => {
          tHead = performance.now();
          timings.ttfb_ms = round(tHead - (tSecure || tConnect || tStart));
          head = h;
        },
        body: (slice) => {
          if (settled) return;
          const room = request.bodyCap - size;
          size += slice.length;
          if (request.keepBody) chunks.push(room >= slice.length ? slice : slice.subarray(0, Math.max(0, room)));
        },
        // More than the cap in the last bytes read is cut too.
        end: () => succeed(size > request.bodyCap),
      },
      request.method === 'HEAD',
    );

    socket.once('connect', () => {
      tConnect = performance.now();
      timings.connect_ms = round(tConnect - tStart);
    });
    if (https) {
      socket.once('secureConnect', () => {
        tSecure = performance.now();
        timings.tls_ms = round(tSecure - (tConnect || tStart));
      });
    }
    socket.on('data', (chunk: Buffer) => {
      if (settled) return;
      try {
        parser.feed(chunk);
      } catch (err) {
        fail(err);
      }
      // The cap reached and more to come: the check stops reading here.
      if (size >= request.bodyCap) succeed(true);
    });
    // The errors below are made only when they are the outcome: an Error captures a stack, and every check's socket
    // ends and closes.
    socket.once('end', () => {
      if (settled) return;
      if (parser.endsAtClose) succeed(false);
      else fail(connectionLost(head ? 'connection closed before the response ended' : 'socket hang up'));
    });
    socket.on('error', fail);
    socket.once('close', () => {
      if (!settled) fail(connectionLost('connection closed before the response ended'));
    });
  });
}
