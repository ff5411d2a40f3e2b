import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a fake received it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Path with the query string. */
  url: string;
  query: Record<string, string>;
  /** Lower-case names (Node's IncomingHttpHeaders). */
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

/** A response a fake sends: an object/array body is sent as JSON, a string as text/plain, undefined as no body. */
export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The API every provider fake exposes (F = the names of its scripted failures). */
export interface FakeServer<F extends string = string> {
  /** Base URL, http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  /** Every request received, in order (including failed and hung ones). */
  requests: RecordedRequest[];
  /** The next `times` requests get this failure (a named provider error or any raw response) instead of normal handling. */
  failNext(failure: F | FakeResponse, times?: number): void;
  /** The next `times` requests are never answered (until close): for timeout tests. */
  hangNext(times?: number): void;
  /** Forget requests and scripted failures (state such as created alerts is kept unless the fake says otherwise). */
  reset(): void;
  close(): Promise<void>;
}

type Scripted = { kind: 'fail'; response: FakeResponse } | { kind: 'hang' };

export async function startFakeHttp<F extends string>(
  failures: Record<F, FakeResponse>,
  handle: (req: RecordedRequest) => FakeResponse,
): Promise<FakeServer<F>> {
  const requests: RecordedRequest[] = [];
  const queue: Scripted[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const parsed = new URL(req.url ?? '/', 'http://fake.local');
      let json: unknown;
      try {
        json = rawBody === '' ? undefined : JSON.parse(rawBody);
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: parsed.pathname,
        url: `${parsed.pathname}${parsed.search}`,
        query: Object.fromEntries(parsed.searchParams),
        headers: req.headers,
        rawBody,
        json,
      };
      requests.push(recorded);
      const scripted = queue.shift();
      if (scripted?.kind === 'hang') return; // never answered; close() destroys the socket
      let response: FakeResponse;
      try {
        response = scripted ? scripted.response : handle(recorded);
      } catch (err) {
        response = { status: 500, body: { fake_error: String(err) } };
      }
      const headers: Record<string, string> = { ...response.headers };
      let body = '';
      if (typeof response.body === 'string') {
        body = response.body;
        headers['content-type'] ??= 'text/plain; charset=utf-8';
      } else if (response.body !== undefined) {
        body = JSON.stringify(response.body);
        headers['content-type'] ??= 'application/json; charset=utf-8';
      }
      res.writeHead(response.status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(failure, times = 1) {
      const response = typeof failure === 'string' ? failures[failure] : failure;
      if (!response) throw new Error(`unknown scripted failure ${JSON.stringify(failure)}`);
      for (let i = 0; i < times; i++) queue.push({ kind: 'fail', response });
    },
    hangNext(times = 1) {
      for (let i = 0; i < times; i++) queue.push({ kind: 'hang' });
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Case-insensitive header value (first one when repeated). */
export function headerOf(req: RecordedRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
