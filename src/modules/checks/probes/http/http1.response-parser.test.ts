import { describe, expect, it } from 'vitest';
import { HTTP_MAX_HEAD_BYTES, ResponseParser, type ResponseHead } from './http1.response-parser.ts';

interface Parsed {
  head: ResponseHead | null;
  body: string;
  ended: boolean;
}

/** Feeds `pieces` one after another; the response as far as it was parsed. */
function parse(pieces: Array<string | Buffer>, headRequest = false): Parsed & { parser: ResponseParser } {
  const out: Parsed = { head: null, body: '', ended: false };
  const parser = new ResponseParser(
    {
      head: (h) => (out.head = h),
      body: (b) => (out.body += b.toString('latin1')),
      end: () => (out.ended = true),
    },
    headRequest,
  );
  for (const p of pieces) parser.feed(typeof p === 'string' ? Buffer.from(p, 'latin1') : p);
  return { ...out, parser };
}

/** Every way of cutting `text` in two, and byte by byte. */
function splits(text: string): string[][] {
  const out: string[][] = [[...text]];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n' +
  '5;ext=1\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n';

describe('HTTP/1 response parser', () => {
  it('reads a chunked body however the bytes are cut', () => {
    for (const pieces of splits(CHUNKED)) {
      const r = parse(pieces);
      expect(r.head).toEqual({
        status: 200,
        headers: { 'transfer-encoding': 'chunked', 'content-type': 'text/plain' },
      });
      expect(r.body).toBe('hello 0123456789');
      expect(r.ended).toBe(true);
    }
  });

  it('reads a Content-Length body however the bytes are cut, and nothing after it', () => {
    const text = 'HTTP/1.1 201 Created\r\nContent-Length: 7\r\n\r\n{"a":1}GARBAGE';
    for (const pieces of splits(text)) {
      const r = parse(pieces);
      expect(r.head?.status).toBe(201);
      expect(r.body).toBe('{"a":1}');
      expect(r.ended).toBe(true);
    }
  });

  it('a body without length or chunking lasts until the connection closes', () => {
    const r = parse(['HTTP/1.0 200 OK\r\nServer: old\r\n\r\nfirst ', 'second']);
    expect(r.body).toBe('first second');
    expect(r.ended).toBe(false);
    expect(r.parser.endsAtClose).toBe(true);
    // A transfer coding other than chunked is read to the close too.
    expect(parse(['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nzz']).parser.endsAtClose).toBe(true);
  });

  it('has no body after HEAD, 204 and 304, or with Content-Length 0', () => {
    expect(parse(['HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n'], true)).toMatchObject({ ended: true, body: '' });
    expect(parse(['HTTP/1.1 204 No Content\r\n\r\n'])).toMatchObject({ ended: true });
    expect(parse(['HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n'])).toMatchObject({ ended: true });
    expect(parse(['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'])).toMatchObject({ ended: true });
  });

  it('skips interim 1xx responses and reads the final one', () => {
    const r = parse([
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n',
      'HTTP/1.1 200 OK\r\n',
    ]);
    expect(r.head).toBeNull();
    const done = parse([
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok',
    ]);
    expect(done).toMatchObject({ head: { status: 200, headers: { 'content-length': '2' } }, body: 'ok', ended: true });
  });

  it('presents header fields as node:http does', () => {
    const r = parse([
      'HTTP/1.1 200 OK\r\nX-A: 1\r\nx-a:2\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Type: text/html\r\n' +
        'Content-Type: text/plain\r\nServer:  padded  \r\nX-Empty:\r\nContent-Length: 0\r\n\r\n',
    ]);
    expect(r.head?.headers).toEqual({
      'x-a': '1, 2',
      'set-cookie': ['a=1', 'b=2'],
      'content-type': 'text/html',
      server: 'padded',
      'x-empty': '',
      'content-length': '0',
    });
  });

  it('refuses what node:http refuses too: ambiguous framing, control characters (differential test)', () => {
    const bad = [
      // RFC 9112 §6.3 (3) and (5): two framings, or two lengths, even equal ones and even where no body follows.
      'HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\nok',
      'HTTP/1.1 204 No Content\r\nContent-Length: x\r\n\r\n',
      // RFC 9110 §5.5: controls other than HTAB in a field value.
      'HTTP/1.1 200 OK\r\nX-A: a\rb\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-A: a\x0b\r\nContent-Length: 0\r\n\r\n',
      // Whitespace around a chunk size.
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\nok\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2 ;a=b\r\nok\r\n0\r\n\r\n',
    ];
    for (const text of bad) {
      expect(() => parse([text]), text).toThrow(expect.objectContaining({ code: 'protocol_error' }));
    }
    // Only SP and HTAB are trimmed from a value: an NBSP (obs-text) stays, as node:http keeps it.
    const nbsp = parse(['HTTP/1.1 200 OK\r\nX-A: \t\xa0a\xa0 \r\nContent-Length: 0\r\n\r\n']);
    expect(nbsp.head?.headers['x-a']).toBe('\xa0a\xa0');
  });

  it('refuses what is not an HTTP/1 response', () => {
    const bad = [
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      'HTTP/2 200\r\n\r\n',
      'HTTP/1.1 99 Low\r\n\r\n',
      'HTTP/1.1 200 OK\r\nBad Header Line\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX y: 1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n',
    ];
    for (const text of bad) {
      expect(() => parse([text]), text).toThrow(expect.objectContaining({ code: 'protocol_error' }));
    }
  });

  it('refuses a head ended by bare LFs at once, not at the close', () => {
    for (const pieces of [['HTTP/1.1 200 OK\nContent-Length: 0\n\n'], ['HTTP/1.1 200 OK\r\nX: 1\n', '\nbody']]) {
      expect(() => parse(pieces), pieces.join('')).toThrow(/bare LF/);
    }
  });

  it('refuses a head larger than the limit that arrives in one piece', () => {
    const head = `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(HTTP_MAX_HEAD_BYTES)}\r\nContent-Length: 0\r\n\r\n`;
    expect(() => parse([head])).toThrow(/response head too large/);
  });

  it('refuses a head larger than the limit, fed in small pieces', () => {
    const piece = Buffer.from(`X-Pad: ${'a'.repeat(1000)}\r\n`, 'latin1');
    const parser = new ResponseParser({ head: () => {}, body: () => {}, end: () => {} }, false);
    parser.feed(Buffer.from('HTTP/1.1 200 OK\r\n', 'latin1'));
    expect(() => {
      for (let sent = 0; sent <= HTTP_MAX_HEAD_BYTES + piece.length; sent += piece.length) parser.feed(piece);
    }).toThrow(/response head too large/);
  });
});
