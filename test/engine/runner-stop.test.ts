/**
 * A remote runner stopping (SIGTERM) while its claim long-polls: the stop ends the claim at once instead of waiting for
 * the control plane's answer (up to 25 s), logs no outage, and the control plane sees the request closed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckRunner, RemoteWorkSource, createProbeRegistry } from '../../src/modules/checks/index.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { LogCapture } from '../support/app.ts';
import { startStallMeter } from '../support/stall-meter.ts';

describe('remote runner stop during a long-poll claim', () => {
  let server: Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    if (server) await new Promise<void>((r) => server!.close(() => r()));
  });

  it('returns within a second, without an outage warning, and closes the claim request', async () => {
    let claimReceived: () => void = () => {};
    const received = new Promise<void>((r) => (claimReceived = r));
    let claimClosed = false;
    let closedNow: () => void = () => {};
    const closed = new Promise<void>((r) => (closedNow = r));
    // A control plane that never answers a claim (work is never due): only the runner can end the request.
    server = createServer((req) => {
      req.resume();
      req.socket.once('close', () => {
        claimClosed = true;
        closedNow();
      });
      claimReceived();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const logs = new LogCapture();
    const runner = new CheckRunner({
      source: new RemoteWorkSource({ controlPlane: `http://127.0.0.1:${port}`, token: 'trn_x' }),
      probes: createProbeRegistry(),
      clock: systemClock,
      logger: createLogger({ level: 'info', pretty: false, destination: logs }),
      concurrency: 5,
      claimWaitMs: 25_000,
      allowPrivateTargets: true,
    });
    runner.start();
    await received;
    const started = Date.now();
    const meter = startStallMeter();
    await runner.stop();
    meter.stop();
    // Far below the 25 s long poll it ends; plus the time this process could not run (a loaded machine).
    expect(Date.now() - started).toBeLessThan(5_000 + meter.stalledMs());
    const warnings = logs.lines.map((l) => JSON.parse(l) as { level: number }).filter((l) => l.level >= 40);
    expect(warnings).toEqual([]);
    // The close reaches the server through the network: wait for that event, not a fixed time (the test's time
    // limit fails it if the request is never closed).
    await closed;
    expect(claimClosed).toBe(true);
  });
});
