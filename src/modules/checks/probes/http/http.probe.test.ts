import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  startHttpTarget,
  startSilentTarget,
  type RunningTarget,
  type TcpTarget,
} from '../../../../../test/support/targets/index.ts';
import { createProbeRegistry, HTTP_BODY_CAP } from '../index.ts';
import type { ProbeContext, ProbeTarget } from '../index.ts';
import { startStallMeter } from '../../../../../test/support/stall-meter.ts';

const registry = createProbeRegistry();
const ctx: ProbeContext = { now: () => Date.now(), allowPrivateTargets: true };

function http(target: string, config: Record<string, unknown> = {}): ProbeTarget {
  return {
    id: 'mon_1',
    type: 'http',
    target,
    interval_seconds: 60,
    config: { method: 'GET', timeout_ms: 2000, follow_redirects: true, verify_tls: true, assertions: [], ...config },
  };
}

let server: RunningTarget;
let silent: TcpTarget;
const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  server = await startHttpTarget((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, 'http://x');
      const p = url.pathname;
      if (p === '/ok') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-version': 'v42', server: 'test' });
        res.end(JSON.stringify({ status: 'ok', items: [{ id: 1 }, { id: 2 }] }));
      } else if (p === '/status') {
        res.writeHead(Number(url.searchParams.get('code')));
        res.end();
      } else if (p === '/redirect') {
        const n = Number(url.searchParams.get('n') ?? 1);
        res.writeHead(302, { location: n > 1 ? `/redirect?n=${n - 1}` : '/ok' });
        res.end();
      } else if (p === '/loop') {
        res.writeHead(301, { location: '/loop' });
        res.end();
      } else if (p === '/see-other') {
        res.writeHead(303, { location: '/ok' });
        res.end();
      } else if (p === '/slow') {
        setTimeout(() => {
          if (!res.destroyed) res.end('late');
        }, 1500);
      } else if (p === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const write = (): void => {
          while (sent < 4 * HTTP_BODY_CAP) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end('END');
        };
        write();
      } else if (p === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><body>All systems operational</body></html>');
      } else {
        res.writeHead(404);
        res.end('not found');
      }
    });
  });
  silent = await startSilentTarget();
});
afterAll(async () => {
  await server.close();
  await silent.close();
});

describe('http probe', () => {
  it('is up on 200 with every timing phase measured', async () => {
    const obs = await registry.run(http(`${server.url}/ok`), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 200, error: null, assertions: [] });
    expect(obs.timings.dns_ms).toBeNull(); // IP literal
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.tls_ms).toBeNull();
    expect(obs.timings.ttfb_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.download_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.total_ms).toBe(obs.duration_ms);
    expect(obs.details).toMatchObject({
      headers: { 'content-type': 'application/json', server: 'test' },
      body_sha256: null,
      remote_address: '127.0.0.1',
      redirects: 0,
    });
  });

  it('measures DNS for a host name', async () => {
    const obs = await registry.run(http(`http://localhost:${server.port}/ok`), ctx);
    expect(obs.status).toBe('up');
    expect(obs.timings.dns_ms).toBeGreaterThanOrEqual(0);
  });

  it.each([
    [200, 'up'],
    [204, 'up'],
    [304, 'up'],
    [404, 'down'],
    [500, 'down'],
    [503, 'down'],
  ])('status %i without assertions is %s', async (code, status) => {
    const obs = await registry.run(http(`${server.url}/status?code=${code}`), ctx);
    expect(obs.status).toBe(status);
    expect(obs.http_status).toBe(code);
    if (status === 'down') expect(obs.error).toMatchObject({ code: 'http_status', message: `HTTP ${code}` });
  });

  it('evaluates assertions, reading the body only when needed and hashing it', async () => {
    const assertions = [
      { type: 'status', equals: 200 },
      { type: 'response_time', less_than: 5000 },
      { type: 'header', name: 'X-Version', matches: '^v\\d+$' },
      { type: 'json', path: '$.items[*].id', equals: [1, 2] },
      { type: 'body', contains: '"ok"' },
    ];
    const obs = await registry.run(http(`${server.url}/ok`, { assertions }), ctx);
    expect(obs.status).toBe('up');
    expect(obs.assertions.map((a) => [a.type, a.passed, a.actual])).toEqual([
      ['status', true, 200],
      ['response_time', true, obs.duration_ms],
      ['header', true, 'v42'],
      ['json', true, [1, 2]],
      ['body', true, true],
    ]);
    expect(obs.details!.body_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is down with assertion_failed when one fails, and assertions override the 2xx rule', async () => {
    const failing = await registry.run(
      http(`${server.url}/ok`, {
        assertions: [
          { type: 'status', equals: 200 },
          { type: 'json', path: '$.status', equals: 'degraded' },
        ],
      }),
      ctx,
    );
    expect(failing.status).toBe('down');
    expect(failing.error?.code).toBe('assertion_failed');
    expect(failing.assertions[1]).toMatchObject({
      type: 'json',
      path: '$.status',
      equals: 'degraded',
      passed: false,
      actual: 'ok',
    });
    const expected404 = await registry.run(
      http(`${server.url}/nope`, { assertions: [{ type: 'status', equals: 404 }] }),
      ctx,
    );
    expect(expected404).toMatchObject({ status: 'up', http_status: 404 });
  });

  it('follows redirects (counting hops) and reports the final response', async () => {
    const obs = await registry.run(http(`${server.url}/redirect?n=3`), ctx);
    expect(obs).toMatchObject({
      status: 'up',
      http_status: 200,
      details: { redirects: 3, final_url: `${server.url}/ok` },
    });
  });

  it('does not follow redirects when disabled (3xx is up)', async () => {
    const obs = await registry.run(http(`${server.url}/redirect`, { follow_redirects: false }), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 302 });
  });

  it('gives up after 10 redirects', async () => {
    const obs = await registry.run(http(`${server.url}/loop`), ctx);
    expect(obs).toMatchObject({ status: 'down', http_status: 301, error: { code: 'too_many_redirects' } });
  });

  it('sends method, headers and body; 303 turns POST into GET', async () => {
    seen.length = 0;
    const obs = await registry.run(
      http(`${server.url}/see-other`, { method: 'POST', headers: { 'X-Token': 'abc' }, body: '{"a":1}' }),
      ctx,
    );
    expect(obs.status).toBe('up');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'x-token': 'abc', 'content-length': '7' },
    });
    expect(seen[1]).toMatchObject({ method: 'GET', url: '/ok', body: '' });
  });

  it('times out', async () => {
    const meter = startStallMeter();
    const obs = await registry.run(http(`${server.url}/slow`, { timeout_ms: 200 }), ctx);
    meter.stop();
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
    expect(obs.duration_ms).toBeGreaterThanOrEqual(190);
    // Plus how long this process could not run timers (test/support/stall-meter.ts): a loaded machine, not the probe.
    expect(obs.duration_ms).toBeLessThan(1000 + meter.stalledMs());
  });

  it('times out on a server that never answers, with connect measured', async () => {
    const obs = await registry.run(http(`http://${silent.target}/`, { timeout_ms: 200 }), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
    expect(obs.timings.connect_ms).toBeGreaterThanOrEqual(0);
    expect(obs.timings.ttfb_ms).toBeNull();
  });

  it('honours ctx.signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const meter = startStallMeter();
    const obs = await registry.run(http(`${server.url}/slow`, { timeout_ms: 5000 }), {
      ...ctx,
      signal: controller.signal,
    });
    meter.stop();
    expect(obs).toMatchObject({ status: 'down', error: { code: 'timeout' } });
    // Plus how long this process could not run timers (test/support/stall-meter.ts): a loaded machine, not the probe.
    expect(obs.duration_ms).toBeLessThan(1000 + meter.stalledMs());
  });

  it('reports connect_refused', async () => {
    const port = await closedPort();
    const obs = await registry.run(http(`http://127.0.0.1:${port}/`), ctx);
    expect(obs).toMatchObject({ status: 'down', http_status: null, error: { code: 'connect_refused' } });
  });

  it('reports dns for a name that does not resolve', async () => {
    const obs = await registry.run(http('http://does-not-exist.invalid/'), ctx);
    expect(obs).toMatchObject({ status: 'down', error: { code: 'dns' } });
  });

  it('caps the body it reads and still evaluates', async () => {
    const obs = await registry.run(
      http(`${server.url}/big`, { assertions: [{ type: 'body', not_contains: 'END' }] }),
      ctx,
    );
    expect(obs).toMatchObject({ status: 'up', details: { body_truncated: true } });
    const drained = await registry.run(http(`${server.url}/big`), ctx);
    expect(drained).toMatchObject({ status: 'up', details: { body_truncated: true, body_sha256: null } });
  });

  it('refuses private targets after resolution unless allowed', async () => {
    const noPrivate = { ...ctx, allowPrivateTargets: false };
    const literal = await registry.run(http(`${server.url}/ok`), noPrivate);
    expect(literal).toMatchObject({ status: 'down', error: { code: 'private_target' } });
    const named = await registry.run(http(`http://localhost:${server.port}/ok`), noPrivate);
    expect(named).toMatchObject({ status: 'down', error: { code: 'private_target' } });
    expect(named.timings.dns_ms).toBeGreaterThanOrEqual(0);
  });

  it('maps unusable request settings to invalid_target', async () => {
    expect((await registry.run(http(`${server.url}/ok`, { headers: { 'x-bad': 'a\r\nb' } }), ctx)).error?.code).toBe(
      'invalid_target',
    );
    expect((await registry.run(http(`${server.url}/ok`, { method: 'GE T' }), ctx)).error?.code).toBe('invalid_target');
  });

  it('checks of one config object reuse its request; another object, target or a failed first check start afresh', async () => {
    seen.length = 0;
    const monitor = http(`${server.url}/redirect`, { method: 'POST', headers: { 'X-Token': 'one' }, body: 'b' });
    const first = await registry.run(monitor, ctx);
    const second = await registry.run(monitor, ctx);
    expect([first.status, second.status]).toEqual(['up', 'up']);
    // Each check sends the first hop as configured and follows the redirect (a 302 after POST: GET, no body).
    expect(seen.map((s) => [s.method, s.url, s.headers['x-token'], s.body])).toEqual([
      ['POST', '/redirect', 'one', 'b'],
      ['GET', '/ok', 'one', ''],
      ['POST', '/redirect', 'one', 'b'],
      ['GET', '/ok', 'one', ''],
    ]);
    seen.length = 0;
    // A saved monitor is a new config object; the same object with another target (a remote runner's) re-reads too.
    await registry.run(http(`${server.url}/ok`, { headers: { 'X-Token': 'two' } }), ctx);
    await registry.run({ ...monitor, target: `${server.url}/ok?again=1` }, ctx);
    expect(seen.map((s) => [s.method, s.url, s.headers['x-token']])).toEqual([
      ['GET', '/ok', 'two'],
      ['POST', '/ok?again=1', 'one'],
    ]);
    const broken = http('not a url');
    expect((await registry.run(broken, ctx)).error?.code).toBe('invalid_target');
    expect((await registry.run(broken, ctx)).error?.code).toBe('invalid_target');
  });

  it('supports HEAD', async () => {
    const obs = await registry.run(http(`${server.url}/ok`, { method: 'HEAD' }), ctx);
    expect(obs).toMatchObject({ status: 'up', http_status: 200 });
  });

  it('rejects invalid targets', async () => {
    expect((await registry.run(http('not a url'), ctx)).error?.code).toBe('invalid_target');
    expect((await registry.run(http('ftp://example.com/'), ctx)).error?.code).toBe('invalid_target');
  });

  it('body assertions work on html', async () => {
    const obs = await registry.run(
      http(`${server.url}/html`, { assertions: [{ type: 'body', matches: 'All systems \\w+' }] }),
      ctx,
    );
    expect(obs.assertions[0]).toMatchObject({ passed: true, actual: 'All systems operational' });
  });
});
