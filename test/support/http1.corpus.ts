/**
 * A corpus of raw HTTP/1.x responses for the differential test of the http probe's client against node:http
 * (src/modules/checks/probes/http/http1.differential.test.ts): hand-picked edge cases plus a seeded generator, so a
 * failing case has the same number and bytes on every run.
 */

export interface CorpusCase {
  name: string;
  method: 'GET' | 'HEAD';
  /** The response's bytes (latin1: one char a byte), written by the server once the request head is read. */
  response: string;
  /** Written in this many pieces, a few ms apart (1: at once). */
  pieces: number;
  /** After writing: end the connection (FIN), or reset it (RST). */
  after: 'end' | 'reset';
  /**
   * Where the response ends by its framing when more bytes follow it (a body after HEAD, 204 or 304; more than the
   * Content-Length). RFC 9112 §6.3: the client discards them, and the probe does; node:http parses them as a next
   * response and fails, unless they arrive after it has finished, so it is given the bytes up to here.
   */
  complete?: number;
}

/** mulberry32: small, fast, deterministic. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CRLF = '\r\n';

function head(statusLine: string, fields: string[]): string {
  return statusLine + CRLF + fields.map((f) => f + CRLF).join('') + CRLF;
}

function chunked(body: string, sizes: number[], ext = '', trailers: string[] = []): string {
  let out = '';
  let at = 0;
  for (const size of sizes) {
    if (at >= body.length) break;
    const piece = body.slice(at, at + size);
    out += piece.length.toString(16) + ext + CRLF + piece + CRLF;
    at += piece.length;
  }
  if (at < body.length) out += (body.length - at).toString(16) + CRLF + body.slice(at) + CRLF;
  return out + '0' + ext + CRLF + trailers.map((t) => t + CRLF).join('') + CRLF;
}

const BODY = 'hello, world';

function plain(name: string, response: string, extra: Partial<CorpusCase> = {}): CorpusCase {
  return { name, method: 'GET', response, pieces: 1, after: 'end', ...extra };
}

/** The edge cases the brief names, each written out. */
export function handPickedCases(): CorpusCase[] {
  const ok = (fields: string[], body = BODY, status = 'HTTP/1.1 200 OK'): string => head(status, fields) + body;
  const cl = `Content-Length: ${BODY.length}`;
  const te = 'Transfer-Encoding: chunked';
  const cases: CorpusCase[] = [
    plain('content-length', ok([cl])),
    plain('content-length 0', ok(['Content-Length: 0'], '')),
    {
      ...plain('content-length with extra bytes after the body', ok([cl], BODY + 'EXTRA')),
      complete: ok([cl]).length,
    },
    plain('content-length short body (truncated)', ok(['Content-Length: 100'])),
    plain('content-length short body, reset', ok(['Content-Length: 100']), { after: 'reset' }),
    plain('duplicate equal content-length', ok([cl, cl])),
    plain('duplicate conflicting content-length', ok([cl, 'Content-Length: 5'])),
    plain('content-length list "12, 12"', ok([`Content-Length: ${BODY.length}, ${BODY.length}`])),
    plain('content-length negative', ok(['Content-Length: -1'])),
    plain('content-length with plus sign', ok([`Content-Length: +${BODY.length}`])),
    plain('content-length hex', ok(['Content-Length: 0xc'])),
    plain('content-length with inner space', ok(['Content-Length: 1 2'])),
    plain('content-length empty', ok(['Content-Length:'])),
    plain('content-length leading zeros', ok([`Content-Length: 000${BODY.length}`])),
    plain('content-length huge', ok(['Content-Length: 99999999999999999999999'])),
    plain('close-delimited body', ok([])),
    plain('close-delimited body, HTTP/1.0', ok([], BODY, 'HTTP/1.0 200 OK')),
    plain('close-delimited body ended by reset', ok([]), { after: 'reset' }),
    plain('close-delimited empty body', ok([], '')),
    plain('chunked', ok([te], chunked(BODY, [5, 7]))),
    plain('chunked with extensions', ok([te], chunked(BODY, [3, 3, 3], ';a=1;b="x y"'))),
    plain('chunked with trailers', ok([te, 'Trailer: X-Sum'], chunked(BODY, [12], '', ['X-Sum: 1', 'X-Other: 2']))),
    plain('chunked upper-case hex and leading zeros', ok([te], '000C' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked size with trailing space', ok([te], 'c ' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked size with BWS before extension', ok([te], 'c ;x=1' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked invalid size', ok([te], 'zz' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked negative size', ok([te], '-c' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked empty size line', ok([te], CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked size overflow', ok([te], 'fffffffffffffffffff' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked data longer than size', ok([te], '5' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked truncated in data', ok([te], 'c' + CRLF + 'hello')),
    plain('chunked truncated before last chunk', ok([te], 'c' + CRLF + BODY + CRLF)),
    plain('chunked truncated in trailers', ok([te], 'c' + CRLF + BODY + CRLF + '0' + CRLF + 'X-T: 1' + CRLF)),
    plain('chunked bare LF after size', ok([te], 'c\n' + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('chunked bare LF after data', ok([te], 'c' + CRLF + BODY + '\n0' + CRLF + CRLF)),
    plain('transfer-encoding chunked and content-length', ok([te, 'Content-Length: 5'], chunked(BODY, [12]))),
    plain('content-length then transfer-encoding chunked', ok(['Content-Length: 5', te], chunked(BODY, [12]))),
    plain('transfer-encoding gzip, chunked', ok(['Transfer-Encoding: gzip, chunked'], chunked(BODY, [12]))),
    plain('transfer-encoding chunked, gzip (close-delimited)', ok(['Transfer-Encoding: chunked, gzip'])),
    plain('transfer-encoding identity', ok(['Transfer-Encoding: identity'])),
    plain('transfer-encoding CHUNKED upper case', ok(['Transfer-Encoding: CHUNKED'], chunked(BODY, [4]))),
    plain('transfer-encoding split over two fields', ok(['Transfer-Encoding: gzip', te], chunked(BODY, [4]))),
    plain('transfer-encoding chunked twice', ok(['Transfer-Encoding: chunked, chunked'], chunked(BODY, [4]))),
    plain('transfer-encoding chunked on HTTP/1.0', ok([te], chunked(BODY, [4]), 'HTTP/1.0 200 OK')),
    plain('100 Continue first', 'HTTP/1.1 100 Continue' + CRLF + CRLF + ok([cl])),
    plain('two 1xx first', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n' + ok([cl])),
    plain('103 Early Hints first', 'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' + ok([cl])),
    plain('103 with content-length 0 first', 'HTTP/1.1 103 Early Hints\r\nContent-Length: 0\r\n\r\n' + ok([cl])),
    plain('103 with a bad content-length first', 'HTTP/1.1 103 Early Hints\r\nContent-Length: x\r\n\r\n' + ok([cl])),
    plain('100 with a control character first', 'HTTP/1.1 100 Continue\r\nX-A: a\x01\r\n\r\n' + ok([cl])),
    plain('1xx then a bare LF head', 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nContent-Length: 0\n\n'),
    plain('only a 100 then close', 'HTTP/1.1 100 Continue\r\n\r\n'),
    plain('204 with no body', head('HTTP/1.1 204 No Content', [])),
    plain('204 with content-length', head('HTTP/1.1 204 No Content', ['Content-Length: 10'])),
    plain('304 with content-length', head('HTTP/1.1 304 Not Modified', ['Content-Length: 10', 'ETag: "x"'])),
    plain('304 with transfer-encoding', head('HTTP/1.1 304 Not Modified', [te])),
    { ...plain('HEAD with content-length', head('HTTP/1.1 200 OK', ['Content-Length: 500'])), method: 'HEAD' },
    { ...plain('HEAD with chunked', head('HTTP/1.1 200 OK', [te])), method: 'HEAD' },
    { ...plain('HEAD without framing', head('HTTP/1.1 200 OK', ['Content-Type: text/html'])), method: 'HEAD' },
    {
      ...plain('HEAD answered with a body', ok([cl])),
      method: 'HEAD',
      complete: head('HTTP/1.1 200 OK', [cl]).length,
    },
    {
      ...plain('204 followed by body bytes', head('HTTP/1.1 204 No Content', []) + BODY),
      complete: head('HTTP/1.1 204 No Content', []).length,
    },
    plain('status line without reason', ok([cl], BODY, 'HTTP/1.1 200')),
    plain('status line with empty reason', ok([cl], BODY, 'HTTP/1.1 200 ')),
    plain('reason with obs-text', ok([cl], BODY, 'HTTP/1.1 200 D\xe9j\xe0 vu')),
    plain('reason with tab', ok([cl], BODY, 'HTTP/1.1 200 O\tK')),
    plain('reason with many words', ok([cl], BODY, 'HTTP/1.1 418 I am a  teapot, really')),
    plain('unregistered status 299', ok([cl], BODY, 'HTTP/1.1 299 Whatever')),
    plain('status 599', ok([cl], BODY, 'HTTP/1.1 599 Network Timeout')),
    plain('status 099', ok([cl], BODY, 'HTTP/1.1 099 Low')),
    plain('status 1000', ok([cl], BODY, 'HTTP/1.1 1000 High')),
    plain('status two digits', ok([cl], BODY, 'HTTP/1.1 20 Short')),
    plain('status not a number', ok([cl], BODY, 'HTTP/1.1 2x0 Bad')),
    plain('lower-case http version', ok([cl], BODY, 'http/1.1 200 OK')),
    plain('HTTP/2.0 status line', ok([cl], BODY, 'HTTP/2.0 200 OK')),
    plain('HTTP/1.2 status line', ok([cl], BODY, 'HTTP/1.2 200 OK')),
    plain('HTTP/0.9 style body only', 'hello world, no head at all\r\n\r\n'),
    plain('two spaces after version', ok([cl], BODY, 'HTTP/1.1  200 OK')),
    plain('empty response', ''),
    plain('head only, no blank line', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n'),
    plain('obs-fold continuation line', ok([cl, 'X-Folded: first', ' second'])),
    plain('obs-fold with tab', ok([cl, 'X-Folded: first', '\tsecond'])),
    plain('bare LF line endings in head', `HTTP/1.1 200 OK\nContent-Length: ${BODY.length}\n\n${BODY}`),
    plain('bare LF after status line only', `HTTP/1.1 200 OK\n${cl}\r\n\r\n${BODY}`),
    plain('bare CR in header value', ok([cl, 'X-A: a\rb'])),
    plain('NUL in header value', ok([cl, 'X-A: a\x00b'])),
    plain('obs-text in header value', ok([cl, 'X-A: caf\xe9'])),
    plain('tab in header value', ok([cl, 'X-A: a\tb'])),
    plain('control character in header value', ok([cl, 'X-A: a\x01b'])),
    plain('DEL in header value', ok([cl, 'X-A: a\x7fb'])),
    plain('vertical tab ending a header value', ok([cl, 'X-A: a\x0b'])),
    plain('NBSP around a header value', ok([cl, 'X-A: \xa0a\xa0'])),
    plain('control character in reason', ok([cl], BODY, 'HTTP/1.1 200 O\x01K')),
    plain('chunked size with leading space', ok([te], ' c' + CRLF + BODY + CRLF + '0' + CRLF + CRLF)),
    plain('space before colon', ok([cl, 'X-A : a'])),
    plain('empty header name', ok([cl, ': a'])),
    plain('header without colon', ok([cl, 'X-A'])),
    plain('header name with slash', ok([cl, 'X/A: a'])),
    plain('header value empty', ok([cl, 'X-Empty:'])),
    plain('header value surrounding whitespace', ok([cl, 'X-A: \t a b \t '])),
    plain('header name case variants', ok([cl, 'content-TYPE: text/plain', 'X-CASE: 1', 'x-case: 2', 'X-Case: 3'])),
    plain('multiple set-cookie', ok([cl, 'Set-Cookie: a=1; Path=/', 'set-cookie: b=2', 'SET-COOKIE: c=3, d=4'])),
    plain('duplicate first-only fields', ok([cl, 'Content-Type: a/b', 'Content-Type: c/d', 'Server: x', 'Server: y'])),
    plain('duplicate location', ok([cl, 'Location: /a', 'Location: /b'], BODY, 'HTTP/1.1 302 Found')),
    plain('duplicate cache-control joined', ok([cl, 'Cache-Control: no-cache', 'Cache-Control: no-store'])),
    plain('duplicate cookie joined with semicolon', ok([cl, 'Cookie: a=1', 'Cookie: b=2'])),
    plain('header of 20 KiB', ok([cl, 'X-Big: ' + 'a'.repeat(20 * 1024)])),
    plain('header of 60 KiB', ok([cl, 'X-Big: ' + 'a'.repeat(60 * 1024)])),
    plain('head of 100 KiB', ok([cl, 'X-Big: ' + 'a'.repeat(100 * 1024)])),
    plain('many small headers', ok([cl, ...Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}`)])),
    plain('body of 200 KiB, content-length', ok([`Content-Length: ${200 * 1024}`], 'b'.repeat(200 * 1024))),
    plain('body of 200 KiB, chunked', ok([te], chunked('c'.repeat(200 * 1024), [64 * 1024]))),
    plain(
      'binary body',
      ok(['Content-Length: 256'], Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('')),
    ),
    plain(
      '101 without upgrade requested',
      head('HTTP/1.1 101 Switching Protocols', ['Upgrade: x', 'Connection: upgrade']),
    ),
    plain('pieces: head split before the blank line', ok([cl]), { pieces: 5 }),
    plain('pieces: chunked split', ok([te], chunked(BODY, [1, 2, 3, 6], ';e=1', ['T: 1'])), { pieces: 9 }),
  ];
  return cases;
}

const STATUS_CODES = [
  200, 200, 200, 201, 202, 203, 204, 206, 226, 299, 301, 302, 303, 304, 307, 308, 400, 401, 404, 410, 429, 500, 502,
  503, 504, 599,
];
const REASONS = ['OK', '', 'Whatever', 'D\xe9j\xe0', 'two  spaces', 'tab\there', 'a:b; c=d', 'x'.repeat(300)];
const INTERIM = [
  'HTTP/1.1 100 Continue\r\n\r\n',
  'HTTP/1.1 103 Early Hints\r\nLink: </s.js>; rel=preload\r\n\r\n',
  'HTTP/1.1 102 Processing\r\n\r\n',
];
const NAMES = [
  'Content-Type',
  'content-type',
  'CONTENT-TYPE',
  'Server',
  'ETag',
  'Cache-Control',
  'X-Request-Id',
  'Vary',
  'Set-Cookie',
  'set-cookie',
  'Location',
  'Last-Modified',
  'Via',
  'X-Powered-By',
  'Link',
  'Age',
  'Expires',
  'Cookie',
  'Strict-Transport-Security',
  'X-Weird_Name',
  "X-!#$%&'*+.^`|~",
];
const VALUES = [
  'text/html; charset=utf-8',
  'a',
  '',
  '  padded  ',
  '\tt\t',
  'caf\xe9',
  'a, b',
  '"quoted, value"',
  '0',
  'x'.repeat(500),
  'max-age=0',
  'id=1; Path=/; HttpOnly',
];
/** How a generated body is framed; the `bad-` ones and `truncated-` ones must be refused by both clients. */
const FRAMINGS = [
  'length',
  'length',
  'chunked',
  'chunked',
  'close',
  'length-extra',
  'length-dup',
  'truncated-length',
  'truncated-chunked',
  'bad-chunk-size',
  'bad-length',
  'te-and-length',
  'length-conflict',
  'chunked-trailers',
] as const;

/** `count` responses from `seed`: the same seed gives the same corpus. */
export function generatedCases(seed: number, count: number): CorpusCase[] {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const int = (max: number): number => Math.floor(rnd() * (max + 1));
  const cases: CorpusCase[] = [];
  for (let n = 0; n < count; n++) {
    const method = rnd() < 0.15 ? 'HEAD' : 'GET';
    const status = pick(STATUS_CODES);
    const version = rnd() < 0.15 ? 'HTTP/1.0' : 'HTTP/1.1';
    const reason = pick(REASONS);
    const statusLine = `${version} ${status}${reason || rnd() < 0.5 ? ' ' + reason : ''}`;
    const fields: string[] = [];
    for (let i = int(6); i > 0; i--) fields.push(`${pick(NAMES)}:${rnd() < 0.8 ? ' ' : ''}${pick(VALUES)}`);
    let body = '';
    for (let i = int(rnd() < 0.1 ? 40_000 : 600); i > 0; i--)
      body += String.fromCharCode(rnd() < 0.9 ? 32 + int(94) : int(255));
    const framing = pick(FRAMINGS);
    const sizes = Array.from({ length: 1 + int(5) }, () => 1 + int(Math.max(1, body.length >> 1)));
    const ext = rnd() < 0.3 ? pick([';a', ';a=b', ';a="b c"', ';a=1;b=2', ' ;x=y']) : '';
    let payload = body;
    switch (framing) {
      case 'length':
        fields.splice(int(fields.length), 0, `${pick(['Content-Length', 'content-length'])}: ${body.length}`);
        break;
      case 'length-extra':
        fields.push(`Content-Length: ${body.length}`);
        payload = body + 'TRAILING GARBAGE';
        break;
      case 'length-dup':
        fields.push(`Content-Length: ${body.length}`, `content-length: ${body.length}`);
        break;
      case 'length-conflict':
        fields.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
        break;
      case 'truncated-length':
        fields.push(`Content-Length: ${body.length + 1 + int(100)}`);
        break;
      case 'bad-length':
        fields.push(`Content-Length: ${pick(['x', '-1', '1.5', `${body.length}a`, `0x${body.length.toString(16)}`])}`);
        break;
      case 'chunked':
      case 'chunked-trailers':
        fields.push(`Transfer-Encoding: ${pick(['chunked', 'Chunked', 'gzip, chunked', 'chunked'])}`);
        payload = chunked(body, sizes, ext, framing === 'chunked-trailers' ? ['X-T: 1', 'x-sum: abc'] : []);
        break;
      case 'te-and-length':
        fields.push('Transfer-Encoding: chunked', `Content-Length: ${body.length}`);
        payload = chunked(body, sizes, ext);
        break;
      case 'truncated-chunked': {
        fields.push('Transfer-Encoding: chunked');
        const whole = chunked(body, sizes, ext);
        payload = whole.slice(0, int(whole.length - 3));
        break;
      }
      case 'bad-chunk-size':
        fields.push('Transfer-Encoding: chunked');
        payload = `${pick(['g', '-1', '', '0x5', '5 5', '1'.repeat(20)])}${CRLF}${body}${CRLF}0${CRLF}${CRLF}`;
        break;
      case 'close':
        break;
    }
    const interim = rnd() < 0.15 ? Array.from({ length: 1 + int(1) }, () => pick(INTERIM)).join('') : '';
    const prefix = interim + head(statusLine, fields);
    const bodiless = method === 'HEAD' || status === 204 || status === 304;
    const complete = bodiless ? prefix.length : framing === 'length-extra' ? prefix.length + body.length : undefined;
    cases.push({
      name: `generated #${n} (${method} ${status} ${framing})`,
      method,
      response: prefix + payload,
      pieces: rnd() < 0.2 ? 2 + int(4) : 1,
      after: rnd() < 0.1 ? 'reset' : 'end',
      ...(complete !== undefined && complete < prefix.length + payload.length ? { complete } : {}),
    });
  }
  return cases;
}
