/**
 * An incremental HTTP/1.x response parser for the http probe (RFC 9112): the status line and header fields, then the
 * body framed by the request method, the status, `Transfer-Encoding: chunked`, `Content-Length` or the end of the
 * connection. The probe sends one request per connection, so the parser reads exactly one final response (interim
 * 1xx responses are skipped). Bytes are fed as they arrive; body bytes are passed on, never gathered here.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ProbeFailure } from '../probe.net.ts';

/** Larger than Node's default 16 KiB header limit: a check should not fail on a server Node would read with a flag. */
export const HTTP_MAX_HEAD_BYTES = 64 * 1024;
const MAX_CHUNK_LINE = 1024;

/** Fields Node keeps only the first of (a duplicate is dropped): the same shape assertions saw with node:http. */
const FIRST_ONLY = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d\d)(?: [^\r\n]*)?$/;

export interface ResponseHead {
  status: number;
  headers: IncomingHttpHeaders;
}

export interface ResponseParserEvents {
  head(head: ResponseHead): void;
  /** A slice of the body (chunked framing removed). */
  body(bytes: Buffer): void;
  /** The response is complete; nothing is parsed after it. */
  end(): void;
}

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-data-end' | 'trailers' | 'until-close' | 'done';

function malformed(message: string): ProbeFailure {
  return new ProbeFailure('protocol_error', `malformed HTTP response: ${message}`);
}

export class ResponseParser {
  private readonly events: ResponseParserEvents;
  /** No body follows any response (a HEAD request). */
  private readonly headRequest: boolean;
  private state: State = 'head';
  /** Bytes of a head, chunk-size line or trailer section not complete yet. */
  private pending: Buffer | null = null;
  /** Body bytes still expected: of the whole body (`length`) or of the current chunk (`chunk-data`). */
  private remaining = 0;

  constructor(events: ResponseParserEvents, headRequest: boolean) {
    this.events = events;
    this.headRequest = headRequest;
  }

  get done(): boolean {
    return this.state === 'done';
  }

  /** True while the end of the connection would be the response's proper end (a body read until close). */
  get endsAtClose(): boolean {
    return this.state === 'until-close';
  }

  /** Whether the status and headers have been read. */
  get headRead(): boolean {
    return this.state !== 'head';
  }

  /** Parses `bytes`; throws a `protocol_error` ProbeFailure on a malformed response. */
  feed(bytes: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, bytes]) : bytes;
    this.pending = null;
    let at = 0;
    while (at < data.length && this.state !== 'done') {
      switch (this.state) {
        case 'head': {
          const end = data.indexOf('\r\n\r\n', at, 'latin1');
          if (end < 0) {
            // A head ended by bare LFs never shows CRLF CRLF: without this the check would wait for the close or the
            // timeout, where node:http fails at once (RFC 9112 §2.2 lets a recipient refuse a bare LF).
            if (data.indexOf('\n\n', at, 'latin1') >= 0) throw malformed('bare LF line ending in the head');
            return this.keep(data, at, HTTP_MAX_HEAD_BYTES, 'response head too large');
          }
          // A head that arrived whole in one read is held to the same limit as one arriving in pieces.
          if (end - at > HTTP_MAX_HEAD_BYTES) throw malformed('response head too large');
          this.readHead(data.toString('latin1', at, end));
          at = end + 4;
          break;
        }
        case 'length': {
          const n = Math.min(this.remaining, data.length - at);
          this.events.body(data.subarray(at, at + n));
          at += n;
          this.remaining -= n;
          if (this.remaining === 0) this.finish();
          break;
        }
        case 'until-close':
          this.events.body(at === 0 ? data : data.subarray(at));
          at = data.length;
          break;
        case 'chunk-size': {
          const end = data.indexOf('\r\n', at, 'latin1');
          if (end < 0) return this.keep(data, at, MAX_CHUNK_LINE, 'chunk size line too long');
          this.readChunkSize(data.toString('latin1', at, end));
          at = end + 2;
          break;
        }
        case 'chunk-data': {
          const n = Math.min(this.remaining, data.length - at);
          this.events.body(data.subarray(at, at + n));
          at += n;
          this.remaining -= n;
          if (this.remaining === 0) this.state = 'chunk-data-end';
          break;
        }
        case 'chunk-data-end': {
          if (data.length - at < 2) return this.keep(data, at, 2, 'chunk not followed by CRLF');
          if (data[at] !== 13 || data[at + 1] !== 10) throw malformed('chunk not followed by CRLF');
          at += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          // After the last chunk: trailer fields (ignored) up to an empty line.
          const end = data.indexOf('\r\n', at, 'latin1');
          if (end < 0) return this.keep(data, at, HTTP_MAX_HEAD_BYTES, 'trailer section too large');
          if (end === at) this.finish();
          at = end + 2;
          break;
        }
      }
    }
  }

  /** Keeps the unparsed rest for the next feed, refusing more than `limit` bytes of one head or line. */
  private keep(data: Buffer, at: number, limit: number, tooLarge: string): void {
    if (data.length - at > limit) throw malformed(tooLarge);
    this.pending = Buffer.from(data.subarray(at));
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n');
    const match = STATUS_LINE.exec(lines[0]!);
    if (!match) throw malformed(`bad status line ${JSON.stringify(lines[0]!.slice(0, 80))}`);
    const status = Number(match[1]);
    const headers = parseFields(lines);
    // RFC 9112 §6.3 (3): both framings in one message may be a smuggling or splitting attempt; node:http refuses it too.
    if (headers['transfer-encoding'] !== undefined && headers['content-length'] !== undefined)
      throw malformed('both transfer-encoding and content-length');
    const length = headers['content-length'];
    // Checked whatever the status or method (as node:http does): a bad length is a broken server either way.
    if (length !== undefined && !/^\d{1,15}$/.test(length))
      throw malformed(`bad content-length ${JSON.stringify(length)}`);
    if (status < 200 && status !== 101) return; // interim response: the final one follows
    this.events.head({ status, headers });
    if (this.state === 'done') return; // the head handler ended the exchange
    this.frameBody(status, headers);
  }

  /** RFC 9112 §6.3: how the body of this response ends. */
  private frameBody(status: number, headers: IncomingHttpHeaders): void {
    if (this.headRequest || status < 200 || status === 204 || status === 304) return this.finish();
    const coding = headers['transfer-encoding'];
    if (coding !== undefined) {
      const last = coding.split(',').pop()!.trim().toLowerCase();
      this.state = last === 'chunked' ? 'chunk-size' : 'until-close';
      return;
    }
    const length = headers['content-length'];
    if (length === undefined) {
      this.state = 'until-close';
      return;
    }
    this.remaining = Number(length);
    if (this.remaining === 0) this.finish();
    else this.state = 'length';
  }

  private readChunkSize(line: string): void {
    // No whitespace around the size: RFC 9112 §7.1.1 allows it only before an extension's `;`, and node:http refuses
    // even that; a server sending either is broken enough to be worth a failed check.
    const size = line.split(';', 1)[0]!;
    if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw malformed(`bad chunk size ${JSON.stringify(size.slice(0, 20))}`);
    this.remaining = parseInt(size, 16);
    this.state = this.remaining === 0 ? 'trailers' : 'chunk-data';
  }

  private finish(): void {
    this.state = 'done';
    this.events.end();
  }
}

/** Header fields as node:http presents them: lower-case names, duplicates joined, dropped or (set-cookie) listed. */
function parseFields(lines: string[]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    if (!TOKEN.test(name)) throw malformed(`bad header line ${JSON.stringify(line.slice(0, 80))}`);
    const key = name.toLowerCase();
    // Only SP and HTAB are OWS (RFC 9110 §5.6.3): trim() would also take a value's NBSP (obs-text) or form feed.
    const value = withoutOws(line.slice(colon + 1));
    // RFC 9110 §5.5: CR, LF and NUL in a value are refused (as node:http does), and so are the other controls but HTAB.
    if (hasControl(value)) throw malformed(`bad character in header ${JSON.stringify(name)}`);
    const seen = headers[key];
    // RFC 9110 §8.6 / RFC 9112 §6.3 (5): differing lengths are an unrecoverable error; node:http refuses equal ones too.
    if (key === 'content-length' && seen !== undefined) throw malformed('more than one content-length');
    if (key === 'set-cookie') {
      if (Array.isArray(seen)) seen.push(value);
      else headers[key] = [value];
    } else if (seen === undefined) {
      headers[key] = value;
    } else if (!FIRST_ONLY.has(key)) {
      headers[key] = `${seen as string}${key === 'cookie' ? '; ' : ', '}${value}`;
    }
  }
  return headers as IncomingHttpHeaders;
}

const isOws = (code: number): boolean => code === 32 || code === 9;

function withoutOws(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && isOws(text.charCodeAt(from))) from++;
  while (to > from && isOws(text.charCodeAt(to - 1))) to--;
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

/** A character below SP but HTAB, or DEL. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 32 && code !== 9) || code === 127) return true;
  }
  return false;
}
