import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';

/** Sends raw bytes to the listening server and returns the whole response as text. */
function rawRequest(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.write(request);
  });
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(response: string): Parsed {
  const [head, ...rest] = response.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const status = Number(lines[0]!.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = rest.join('\r\n\r\n');
  if (headers['transfer-encoding'] === 'chunked') {
    let out = '';
    let text = body;
    for (;;) {
      const nl = text.indexOf('\r\n');
      const size = parseInt(text.slice(0, nl), 16);
      if (!size) break;
      out += text.slice(nl + 2, nl + 2 + size);
      text = text.slice(nl + 2 + size + 2);
    }
    body = out;
  }
  return { status, headers, body };
}

describe('every error the process writes uses the envelope and carries X-Request-Id (real port)', () => {
  let t: TestApp;
  let o: TestOrg;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    o = await t.createOrg();
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.tocsin.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t.close());

  function expectEnvelope(res: Parsed, status: number, code: string): void {
    expect(res.status, res.body).toBe(status);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^req_/);
    expect(res.headers['content-type']).toContain('application/json');
    const body = JSON.parse(res.body) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(0);
    expect(body.error.request_id).toBe(id);
  }

  const get = (path: string, extra = '') =>
    `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${o.apiKey}\r\n${extra}Connection: close\r\n\r\n`;

  it('bad percent-encoding in the path (FST_ERR_BAD_URL): 400', async () => {
    expectEnvelope(parse(await rawRequest(port, get('/api/v1/monitors/%E0%A4%A'))), 400, 'bad_request');
  });

  it('an over-long path parameter: 414', async () => {
    expectEnvelope(parse(await rawRequest(port, get(`/api/v1/monitors/mon_${'a'.repeat(500)}`))), 414, 'uri_too_long');
  });

  it('headers over the limit: 431', async () => {
    const res = parse(await rawRequest(port, get('/healthz', `X-Big: ${'a'.repeat(20_000)}\r\n`)));
    expectEnvelope(res, 431, 'request_header_fields_too_large');
  });

  it('a malformed request line: 400', async () => {
    expectEnvelope(parse(await rawRequest(port, 'THIS IS NOT HTTP\r\n\r\n')), 400, 'bad_request');
  });

  it('a body over the limit: 413', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const res = await rawRequest(
      port,
      `POST /api/v1/monitors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${o.apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expectEnvelope(parse(res), 413, 'payload_too_large');
  });

  it('an unsupported media type: 415', async () => {
    const body = 'target=https://a.example.com';
    const res = await rawRequest(
      port,
      `POST /api/v1/monitors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${o.apiKey}\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expectEnvelope(parse(res), 415, 'unsupported_media_type');
  });
});

describe('the OpenAPI document lists the errors written before routing', () => {
  it('every operation documents 400, 431, 500 and 503, and 414 when its path takes a parameter', async () => {
    const t = await createTestApp();
    try {
      const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
        paths: Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>>;
      };
      const missing: string[] = [];
      for (const [path, operations] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(operations)) {
          if (!op.responses) continue;
          const expected = ['400', '431', '500', '503', ...(path.includes('{') ? ['414'] : [])];
          for (const status of expected) if (!op.responses[status]) missing.push(`${method} ${path} ${status}`);
        }
      }
      expect(missing).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('a request arriving while the server drains (real port)', () => {
  it('answers 503 service_unavailable in the envelope with X-Request-Id', async () => {
    const t = await createTestApp();
    try {
      await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.tocsin.app.server.address() as { port: number }).port;
      // A request still being sent keeps its connection (and so the server) open while it drains.
      const held = connect(port, '127.0.0.1');
      await new Promise((r) => held.once('connect', r));
      const received: Buffer[] = [];
      held.on('data', (c) => received.push(c));
      const ended = new Promise((r) => held.once('close', r));
      held.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const closing = t.tocsin.app.close();
      await new Promise((r) => setTimeout(r, 100));
      held.write('Connection: close\r\n\r\n');
      await ended;
      await closing;
      const res = parse(Buffer.concat(received).toString('utf8'));
      expect(res.status).toBe(503);
      expect(res.headers['x-request-id']).toMatch(/^req_/);
      expect(JSON.parse(res.body)).toEqual({
        error: { code: 'service_unavailable', message: expect.any(String), request_id: res.headers['x-request-id'] },
      });
    } finally {
      await t.close().catch(() => undefined);
    }
  });
});
