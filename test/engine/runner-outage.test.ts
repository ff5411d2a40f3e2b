/**
 * A remote runner whose control plane is down logs one warning for the outage (no stack trace), backs off, and
 * logs one line when the control plane answers again. Short real timings against a closed, then opened, port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckRunner, RemoteWorkSource, createProbeRegistry } from '../../src/modules/checks/index.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { LogCapture } from '../support/app.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('remote runner and an unreachable control plane', () => {
  let server: Server | null = null;
  let runner: CheckRunner | null = null;
  afterEach(async () => {
    await runner?.stop();
    if (server) await new Promise<void>((r) => server!.close(() => r()));
  });

  it('one warning per outage with backoff, one line when it reconnects', async () => {
    const port = await closedPort();
    const logs = new LogCapture();
    let claims = 0;
    const source = new RemoteWorkSource({ controlPlane: `http://127.0.0.1:${port}`, token: 'trn_x' });
    const counting = {
      claim: (max: number, waitMs: number) => {
        claims += 1;
        return source.claim(max, waitMs);
      },
      submit: (results: Parameters<typeof source.submit>[0]) => source.submit(results),
    };
    runner = new CheckRunner({
      source: counting,
      probes: createProbeRegistry(),
      clock: systemClock,
      logger: createLogger({ level: 'info', pretty: false, destination: logs }),
      concurrency: 5,
      allowPrivateTargets: true,
      retryBaseMs: 20,
      retryMaxMs: 160,
    });
    runner.start();
    await sleep(1_000);
    // Backoff 20, 40, 80, 160, 160 …: about 9 attempts in a second, not 50 (and not one a millisecond).
    expect(claims).toBeGreaterThanOrEqual(4);
    expect(claims).toBeLessThanOrEqual(12);
    const lines = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const warnings = lines.filter((l) => (l.level as number) >= 40);
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.msg)).toContain('unreachable');
    expect(String(warnings[0]!.reason)).toContain('fetch failed');
    expect(JSON.stringify(warnings[0])).not.toContain('stack');

    // The control plane comes back on that port.
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ checks: [] }));
      req.resume();
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    await sleep(600);
    const after = logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(after.filter((l) => String(l.msg).includes('reachable again'))).toHaveLength(1);
    expect(after.filter((l) => (l.level as number) >= 40)).toHaveLength(1);
  });
});
