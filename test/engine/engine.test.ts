import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';
import { countRows, rows } from './engine.helpers.ts';

describe.each(testDialects())('check engine end to end on %s', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let target: RunningTarget;
  let status = 200;

  beforeAll(async () => {
    target = await startHttpTarget((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'unavailable');
    });
  });
  afterAll(async () => {
    await target.close();
  });
  // An app per case: a round runs every due monitor, so another case's monitors would change what a round counts.
  beforeEach(async () => {
    status = 200;
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
  });
  afterEach(async () => {
    await t.close();
  });

  /** One scheduler round at `clock`: claim what is due, probe, record. */
  const round = () => t.tocsin.services.checks.localRunner.runOnce();

  it('a failing target goes down after failure_threshold checks (one incident with the cause) and recovers after success_threshold', async () => {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: {
        target: target.url,
        interval_seconds: 30,
        config: { failure_threshold: 2, success_threshold: 2, assertions: [{ type: 'status', equals: 200 }] },
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }>().id;
    const monitorStatus = async () => (await t.tocsin.services.monitors.findAnywhere(id))!.status;
    const db = t.tocsin.database;

    expect(await round()).toBe(0); // not due yet (first check within 5 s of creation)
    clock.advance(5_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('pending'); // success_threshold 2 applies to pending → up too
    clock.advance(30_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('up');

    status = 503;
    clock.advance(30_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('up'); // 1 failure < failure_threshold
    clock.advance(30_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('down');
    clock.advance(30_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('down');

    const incidents = await rows<{ status: string; cause: string }>(
      db,
      'select status, cause from incident where monitor_id = ?',
      [id],
    );
    expect(incidents).toEqual([
      { status: 'opened', cause: expect.stringContaining('HTTP 503 (expected 200)') as unknown as string },
    ]);

    status = 200;
    clock.advance(30_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('down'); // 1 success < success_threshold
    clock.advance(30_000);
    expect(await round()).toBe(1);
    expect(await monitorStatus()).toBe('up');

    const after = await rows<{ status: string }>(db, 'select status from incident where monitor_id = ?', [id]);
    expect(after).toEqual([{ status: 'resolved' }]);
    // Each transition as it is kept: the live feed's monitor_status_changed (outbox); the cause with the `down` event.
    const changes = (
      await rows<{ payload: string }>(
        db,
        "select payload from domain_event where monitor_id = ? and type = 'monitor_status_changed' order by seq",
        [id],
      )
    ).map((r) => JSON.parse(r.payload) as { from: string; to: string });
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual(['pending->up', 'up->down', 'down->up']);
    const down = await rows<{ payload: string }>(
      db,
      "select payload from domain_event where monitor_id = ? and type = 'down'",
      [id],
    );
    expect((JSON.parse(down[0]!.payload) as { cause: string }).cause).toBe('HTTP 503 (expected 200)');
    expect(await countRows(db, 'domain_event', { monitor_id: id, type: 'down' })).toBe(1);
    expect(await countRows(db, 'domain_event', { monitor_id: id, type: 'recovered' })).toBe(1);
    const monitor = (await t.tocsin.services.monitors.findAnywhere(id))!;
    expect(monitor.lastCheckedAt).toBe(clock.now());
  });

  it('after downtime a monitor runs once, not once per missed slot; paused monitors are not claimed', async () => {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { target: target.url, interval_seconds: 10 },
    });
    const id = created.json<{ id: string }>().id;
    clock.advance(3_600_000); // an hour down: 360 missed slots
    await round();
    const executions = async () =>
      (
        await rows<{ n: number }>(
          t.tocsin.database,
          "select count(*) as n from domain_event where monitor_id = ? and type = 'monitor_status_changed'",
          [id],
        )
      )[0]!.n;
    expect(Number(await executions())).toBe(1); // pending->up once
    expect(await round()).toBe(0);
    await t.tocsin.app.inject({ method: 'POST', url: `/api/v1/monitors/${id}/pause`, headers: bearer(org.apiKey) });
    clock.advance(60_000);
    const claimed = await t.tocsin.services.checks.engine.claim('x', ['local'], 1000);
    expect(claimed.map((c) => c.monitorId)).not.toContain(id);
  });

  it('heartbeat push URL: 404 for an unknown token; a ping keeps a heartbeat monitor up, silence takes it down', async () => {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: {
        type: 'heartbeat',
        name: 'nightly job',
        interval_seconds: 60,
        config: { grace_seconds: 30, failure_threshold: 1 },
      },
    });
    expect(created.statusCode).toBe(201);
    const m = created.json<{ id: string; target: string }>();
    const path = new URL(m.target).pathname;
    const unknown = await t.tocsin.app.inject({ method: 'POST', url: '/api/v1/heartbeats/nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    const ping = await t.tocsin.app.inject({ method: 'GET', url: path });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({ status: 'ok', monitor_id: m.id });
    clock.advance(5_000);
    await round();
    expect((await t.tocsin.services.monitors.findAnywhere(m.id))!.status).toBe('up');
    clock.advance(120_000); // > 60 s + 30 s grace without a ping
    await round();
    expect((await t.tocsin.services.monitors.findAnywhere(m.id))!.status).toBe('down');
    // A ping makes it due at once and it recovers on the next round.
    clock.advance(1_000);
    expect((await t.tocsin.app.inject({ method: 'POST', url: path })).statusCode).toBe(200);
    await round();
    expect((await t.tocsin.services.monitors.findAnywhere(m.id))!.status).toBe('up');
  });
});
