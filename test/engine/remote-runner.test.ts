import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckRunner, RemoteWorkSource, RUNNER_LIVE_MS, createProbeRegistry } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

describe.each(testDialects())('remote runner against a control plane on a real port (%s)', (dialect) => {
  let t: TestApp;
  let target: RunningTarget;
  let base: string;
  const clock = new ManualClock(Date.parse('2026-05-01T00:00:00.000Z'));
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { regions: ['local', 'far'] } });
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.tocsin.app.server.address() as AddressInfo).port}`;
    target = await startHttpTarget();
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  it('a region without a live runner shows no_data', async () => {
    // A runner another case registered (whatever the order) is no longer live once this much time has passed.
    clock.advance(RUNNER_LIVE_MS + 1);
    const liveness = await t.tocsin.services.checks.runners.regionLiveness();
    expect(liveness.find((r) => r.region_code === 'far')).toMatchObject({ live_runners: 0, state: 'no_data' });
  });

  it("refuses a bad token, claims the region's checks by long-poll and reports executions with that region", async () => {
    const bad = await fetch(`${base}/api/v1/runners/heartbeat`, {
      method: 'POST',
      headers: { authorization: 'Bearer trn_nope' },
    });
    expect(bad.status).toBe(401);
    const { token } = await t.tocsin.services.checks.runners.createToken('far');
    const source = new RemoteWorkSource({ controlPlane: base, token });
    expect(await source.heartbeat()).toMatchObject({ region_code: 'far' });

    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { target: target.url, interval_seconds: 30, region_codes: ['far'] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }>().id;
    // Nothing due yet: a short long-poll returns empty.
    expect(await source.claim(10, 1000)).toEqual([]);
    clock.advance(6_000);
    const runner = new CheckRunner({
      source,
      probes: createProbeRegistry(),
      clock,
      logger: t.tocsin.logger,
      concurrency: 10,
      allowPrivateTargets: true,
    });
    expect(await runner.runOnce()).toBe(1);
    const monitor = (await t.tocsin.services.monitors.findAnywhere(id))!;
    expect(monitor.status).toBe('up');
    const list = await t.tocsin.app.inject({
      method: 'GET',
      url: `/api/v1/monitors/${id}/executions`,
      headers: bearer(org.apiKey),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: Array<{ region_code: string; status: string }> }>().data).toEqual([
      expect.objectContaining({ region_code: 'far', status: 'up' }),
    ]);
    const liveness = await t.tocsin.services.checks.runners.regionLiveness();
    expect(liveness).toEqual([
      { region_code: 'local', served_locally: true, live_runners: 0, state: 'live' },
      { region_code: 'far', served_locally: false, live_runners: 1, state: 'live' },
    ]);
    const regions = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/regions', headers: bearer(org.apiKey) });
    expect(regions.json<{ data: unknown[] }>().data).toEqual(liveness);
    // Results for another region are refused.
    const foreign = await fetch(`${base}/api/v1/runners/results`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        results: [
          {
            monitor_id: id,
            region_code: 'local',
            due_at_ms: clock.now(),
            observation: {
              status: 'down',
              started_at: clock.now(),
              duration_ms: 1,
              timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: 1 },
              http_status: null,
              assertions: [],
              error: { code: 'timeout', message: 'x' },
            },
          },
        ],
      }),
    });
    expect(foreign.status).toBe(422);
  });
});
