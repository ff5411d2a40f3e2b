import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

/** Sends raw bytes to the listening server and returns the whole response as text once the server closes. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.write(request);
  });
}

function headAndBody(response: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = response.split('\r\n\r\n');
  const lines = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(lines[0]?.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

/**
 * Node's HTTP server answers an HTTP/1.1 request without Host itself (a bare 400, no body, no request id) unless
 * told not to; the app must refuse it in the envelope like every other malformed request.
 */
describe('an HTTP/1.1 request without a Host header (real port)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.tocsin.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t.close());

  it.each(['/healthz', '/api/v1/monitors', '/no/such/route'])(
    'GET %s: 400 bad_request in the envelope',
    async (path) => {
      const res = headAndBody(await rawRequest(port, `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`));
      expect(res.status, res.body).toBe(400);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^req_/);
      expect(res.headers['content-type']).toContain('application/json');
      expect(JSON.parse(res.body)).toEqual({
        error: { code: 'bad_request', message: expect.stringContaining('Host'), request_id: id },
      });
    },
  );

  it('HTTP/1.0 needs no Host: /healthz answers 200', async () => {
    const res = headAndBody(await rawRequest(port, 'GET /healthz HTTP/1.0\r\n\r\n'));
    expect(res.status, res.body).toBe(200);
  });
});
