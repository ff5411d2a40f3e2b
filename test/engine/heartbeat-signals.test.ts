/**
 * Heartbeats like cron monitors (DECISIONS §20) through the real app on both databases with an injected clock:
 * schedules (a cron across Europe/Berlin's DST changes), start/end pairing by run id and the run's duration, ran too
 * long, fail and exit codes, log without a state change, body truncation at 100 KB, the 404 of unknown tokens, the
 * organization's ping key with slugs and ?create=1, and the 422s of bad schedules.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HeartbeatsService } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, TEST_PLANS, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

interface Ping {
  kind: string;
  rid: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  body: string | null;
  body_preview: boolean;
  body_bytes: number;
  truncated: boolean;
  user_agent: string | null;
  source_ip: string | null;
}

describe.each(testDialects())('heartbeat signals on %s', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let apiKey: string;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-03-28T12:00:00.000Z'));
    t = await createTestApp({
      dialect,
      clock,
      configFile: { plans: { ...TEST_PLANS, team: { interval_floor_seconds: 300 } } },
    });
  });
  // A key per test: API budgets do not refill on a clock that only moves when told.
  beforeEach(async () => {
    apiKey = (await t.createOrg()).apiKey;
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, key = apiKey) =>
    t.tocsin.app.inject({
      method,
      url,
      headers: bearer(key),
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    });
  const ping = (path: string, method: 'GET' | 'POST' = 'GET', body?: string) =>
    t.tocsin.app.inject({
      method,
      url: path,
      headers: { 'user-agent': 'curl/8.5.0', ...(body !== undefined && { 'content-type': 'text/plain' }) },
      ...(body !== undefined && { payload: body }),
    });
  const round = async () => {
    await t.tocsin.services.checks.localRunner.runOnce();
  };
  const at = async (iso: string) => {
    clock.set(Date.parse(iso));
    await round();
  };
  const statusOf = async (id: string) => (await t.tocsin.services.monitors.findAnywhere(id))!.status;
  const lastError = async (id: string) => {
    const list = await call('GET', `/api/v1/monitors/${id}/executions?limit=1`);
    return list.json<{ data: Array<{ error: { code: string; message: string } | null }> }>().data[0]?.error ?? null;
  };
  const pings = async (id: string, query = '') => {
    const r = await call('GET', `/api/v1/monitors/${id}/pings${query}`);
    expect(r.statusCode).toBe(200);
    return r.json<{ data: Ping[]; next_cursor: string | null; next_expected_at: string | null }>();
  };

  async function heartbeat(config: Record<string, unknown>) {
    const r = await call('POST', '/api/v1/monitors', { type: 'heartbeat', name: 'job', config });
    expect(r.statusCode, r.body).toBe(201);
    const m = r.json<{ id: string; target: string; config: Record<string, unknown> }>();
    return { ...m, path: new URL(m.target).pathname };
  }

  it('a daily cron in Europe/Berlin is expected at the wall time across both DST changes', async () => {
    clock.set(Date.parse('2026-03-28T12:00:00.000Z'));
    const hb = await heartbeat({ schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' }, grace_seconds: 600 });
    expect(hb.config).toMatchObject({ grace_seconds: 600, failure_threshold: 1 });
    expect((await ping(hb.path)).statusCode).toBe(200);
    // 02:30 does not exist on 29 March 2026: the run is expected at the end of the gap, 03:00 CEST (01:00 UTC).
    expect((await pings(hb.id)).next_expected_at).toBe('2026-03-29T01:00:00.000Z');
    await at('2026-03-29T01:09:00.000Z'); // inside the grace
    expect(await statusOf(hb.id)).toBe('up');
    await at('2026-03-29T01:10:30.000Z'); // past it
    expect(await statusOf(hb.id)).toBe('down');
    expect(await lastError(hb.id)).toMatchObject({ code: 'heartbeat_missed' });
    clock.advance(60_000);
    expect((await ping(hb.path)).statusCode).toBe(200);
    await round();
    expect(await statusOf(hb.id)).toBe('up');
    // Summer time: 02:30 CEST is 00:30 UTC.
    expect((await pings(hb.id)).next_expected_at).toBe('2026-03-30T00:30:00.000Z');
    // 25 October 2026: 02:30 happens twice; the first (CEST, 00:30 UTC) is expected, and only once.
    clock.set(Date.parse('2026-10-24T12:00:00.000Z'));
    expect((await ping(hb.path)).statusCode).toBe(200);
    expect((await pings(hb.id)).next_expected_at).toBe('2026-10-25T00:30:00.000Z');
    clock.set(Date.parse('2026-10-25T00:31:00.000Z'));
    expect((await ping(hb.path)).statusCode).toBe(200);
    // Winter time again: 02:30 CET is 01:30 UTC the next day.
    expect((await pings(hb.id)).next_expected_at).toBe('2026-10-26T01:30:00.000Z');
    await at('2026-10-26T01:39:00.000Z');
    expect(await statusOf(hb.id)).toBe('up');
    await at('2026-10-26T01:41:00.000Z');
    expect(await statusOf(hb.id)).toBe('down');
  });

  it('pairs a start with its end by run id (or the next end) and records the duration', async () => {
    clock.set(Date.parse('2026-05-01T00:00:00.000Z'));
    const hb = await heartbeat({ schedule: { every_seconds: 3600 } });
    expect((await ping(`${hb.path}/start?rid=a`)).json()).toMatchObject({ signal: 'start', duration_ms: null });
    clock.advance(1_000);
    expect((await ping(`${hb.path}/start?rid=b`)).statusCode).toBe(200);
    clock.advance(4_000);
    expect((await ping(`${hb.path}?rid=a`)).json()).toMatchObject({ signal: 'success', duration_ms: 5_000 });
    clock.advance(2_000);
    expect((await ping(`${hb.path}/0?rid=b`)).json()).toMatchObject({ signal: 'success', duration_ms: 6_000 });
    // A start without rid pairs with the next end.
    clock.advance(500);
    expect((await ping(`${hb.path}/start`, 'POST')).statusCode).toBe(200);
    clock.advance(1_500);
    expect((await ping(hb.path, 'POST')).json()).toMatchObject({ duration_ms: 1_500 });
    const list = await pings(hb.id);
    expect(list.data.map((p) => [p.kind, p.rid, p.duration_ms])).toEqual([
      ['success', null, 1_500],
      ['start', null, null],
      ['success', 'b', 6_000],
      ['success', 'a', 5_000],
      ['start', 'b', null],
      ['start', 'a', null],
    ]);
    expect(list.data[0]).toMatchObject({ user_agent: 'curl/8.5.0', exit_code: null, truncated: false });
    // Paginated like other lists.
    const first = await pings(hb.id, '?limit=4');
    expect(first.data).toHaveLength(4);
    const rest = await pings(hb.id, `?limit=4&cursor=${first.next_cursor}`);
    expect(rest.data.map((p) => p.rid)).toEqual(['b', 'a']);
    expect(rest.next_cursor).toBeNull();
  });

  it('a run open longer than max_run_seconds is down ("ran too long"); its end brings it back', async () => {
    clock.set(Date.parse('2026-05-02T00:00:00.000Z'));
    const hb = await heartbeat({ schedule: { every_seconds: 86_400 }, max_run_seconds: 120 });
    expect((await ping(hb.path)).statusCode).toBe(200);
    await at('2026-05-02T00:00:10.000Z');
    expect(await statusOf(hb.id)).toBe('up');
    expect((await ping(`${hb.path}/start?rid=r1`)).statusCode).toBe(200);
    await at('2026-05-02T00:02:00.000Z');
    expect(await statusOf(hb.id)).toBe('up');
    await at('2026-05-02T00:02:20.000Z');
    expect(await statusOf(hb.id)).toBe('down');
    expect((await lastError(hb.id))?.message).toMatch(/^ran too long/);
    expect(await lastError(hb.id)).toMatchObject({ code: 'heartbeat_ran_too_long' });
    clock.advance(1_000);
    expect((await ping(`${hb.path}?rid=r1`)).json()).toMatchObject({ duration_ms: 131_000 });
    await round();
    expect(await statusOf(hb.id)).toBe('up');
  });

  it('fail and non-zero exit codes take it down at once; 0 is a success; log changes nothing', async () => {
    clock.set(Date.parse('2026-05-03T00:00:00.000Z'));
    const hb = await heartbeat({ schedule: { every_seconds: 3600 } });
    expect((await ping(hb.path)).statusCode).toBe(200);
    await at('2026-05-03T00:00:05.000Z');
    expect(await statusOf(hb.id)).toBe('up');
    clock.advance(1_000);
    expect((await ping(`${hb.path}/fail`, 'POST', 'disk full')).json()).toMatchObject({ signal: 'fail' });
    await round();
    expect(await statusOf(hb.id)).toBe('down');
    expect(await lastError(hb.id)).toMatchObject({ code: 'heartbeat_failed' });
    clock.advance(1_000);
    expect((await ping(`${hb.path}/0`)).json()).toMatchObject({ signal: 'success' });
    await round();
    expect(await statusOf(hb.id)).toBe('up');
    clock.advance(1_000);
    expect((await ping(`${hb.path}/3`)).json()).toMatchObject({ signal: 'fail' });
    await round();
    expect(await statusOf(hb.id)).toBe('down');
    expect((await lastError(hb.id))?.message).toBe('the job failed (exit code 3)');
    // A log while down: kept, the monitor stays down.
    clock.advance(1_000);
    expect((await ping(`${hb.path}/log`, 'POST', 'still broken')).json()).toMatchObject({ signal: 'log' });
    await round();
    expect(await statusOf(hb.id)).toBe('down');
    clock.advance(1_000);
    expect((await ping(hb.path)).statusCode).toBe(200);
    await round();
    expect(await statusOf(hb.id)).toBe('up');
    // A log does not count as a ping: an hour and a grace after the last success it is down despite logs.
    clock.advance(3_000_000);
    expect((await ping(`${hb.path}/log`)).statusCode).toBe(200);
    await at('2026-05-03T01:01:30.000Z');
    expect(await statusOf(hb.id)).toBe('down');
    const list = await pings(hb.id);
    expect(list.data.map((p) => [p.kind, p.exit_code, p.body])).toEqual([
      ['log', null, null],
      ['success', null, null],
      ['log', null, 'still broken'],
      ['fail', 3, null],
      ['success', 0, null],
      ['fail', null, 'disk full'],
      ['success', null, null],
    ]);
    // 256 is no exit code.
    const bad = await ping(`${hb.path}/256`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ error: { details: [{ field: 'signal' }] } });
  });

  it('answers 60 concurrent pings (group commit) each with its own stored row', async () => {
    const a = await heartbeat({ schedule: { every_seconds: 3600 } });
    const b = await heartbeat({ schedule: { every_seconds: 3600 } });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => ping(i % 2 ? a.path : `${b.path}/log`, 'POST', `ping ${i}`)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const ids = new Set(answers.map((r) => r.json<{ ping_id: string }>().ping_id));
    expect(ids.size).toBe(60);
    const stored = [...(await pings(a.id, '?limit=200')).data, ...(await pings(b.id, '?limit=200')).data];
    expect(stored).toHaveLength(60);
    expect(new Set(stored.map((p) => p.body))).toEqual(new Set(answers.map((_, i) => `ping ${i}`)));
  });

  it('a batch of mixed pings leaves what the same pings sent one at a time leave (pairs, fails, logs, 404s)', async () => {
    const together = await heartbeat({ schedule: { every_seconds: 3600 } });
    const alone = await heartbeat({ schedule: { every_seconds: 3600 } });
    const signals = ['', '/start?rid=a', '?rid=a', '/fail', '/log', '/start', '/3', '', '/0?rid=z', '/start?rid=b']
      .concat(['/log', '/fail?rid=b', '', '/start', '/start?rid=c', '/7', '', '/start?rid=d'])
      .map((suffix, i) => ({ suffix, body: `ping ${String(i).padStart(2, '0')}` }));
    // Sent at once: they share a transaction (the group commit), with an unknown token among them.
    const answers = await Promise.all([
      ...signals.map((s) => ping(together.path + s.suffix, 'POST', s.body)),
      ping('/api/v1/heartbeats/nope', 'POST', 'lost'),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([...signals.map(() => 200), 404]);
    for (const s of signals) expect((await ping(alone.path + s.suffix, 'POST', s.body)).statusCode).toBe(200);
    const tables = t.db.database.tables();
    const rowsOf = async (id: string) =>
      (
        await sql<Record<string, unknown>>`select kind, rid, open, duration_ms, exit_code, body from heartbeat_signal
          where monitor_id = ${id} order by body`.execute(tables)
      ).rows.map((r): Record<string, unknown> => ({
        ...r,
        duration_ms: r.duration_ms === null ? null : Number(r.duration_ms),
      }));
    const stateOf = async (id: string) =>
      (
        await sql<Record<string, unknown>>`select last_ping_at, pings, last_fail_at, last_exit_code, open_since
          from heartbeat_ping where monitor_id = ${id}`.execute(tables)
      ).rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : Number(v)])));
    const batched = await rowsOf(together.id);
    expect(batched).toHaveLength(signals.length);
    expect(batched).toEqual(await rowsOf(alone.id));
    // the ends paired with their starts: by run id (a, b), and ends without one with the latest open start
    expect(batched.filter((r) => r.duration_ms !== null).map((r) => r.body)).toEqual([
      'ping 02',
      'ping 06',
      'ping 11',
      'ping 15',
    ]);
    expect(await stateOf(together.id)).toEqual(await stateOf(alone.id));
    expect(await stateOf(together.id)).toEqual([
      expect.objectContaining({ pings: 10, last_exit_code: 7, open_since: clock.now() }),
    ]);
  });

  it('a new process files the pings an earlier one left unfiled with its first batch', async () => {
    const monitor = await heartbeat({ schedule: { every_seconds: 3600 } });
    const tables = t.db.database.tables();
    const unfiled = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from heartbeat_signal where filed = 0`.execute(tables)).rows[0]!
          .n,
      );
    for (let i = 0; i < 3; i++) expect((await ping(monitor.path, 'POST', `before ${i}`)).statusCode).toBe(200);
    const left = await unfiled();
    if (dialect === 'sqlite') expect(left).toBeGreaterThanOrEqual(3);
    else expect(left).toBe(0);
    // What a restarted `tocsin serve` builds: a service that has stored nothing yet, over the same database.
    const restarted = new HeartbeatsService({
      database: t.db.database,
      clock,
      findByTokens: (tokens, db) => t.tocsin.services.monitors.findByHeartbeatTokens(tokens, db),
    });
    await restarted.ping(monitor.path.split('/').pop()!);
    // Its first batch filed what was left and stored its own ping unfiled (SQLite); PostgreSQL files every ping.
    expect(await unfiled()).toBe(dialect === 'sqlite' ? 1 : 0);
    const listed = await call('GET', `/api/v1/monitors/${monitor.id}/pings?limit=10`);
    expect(listed.json<{ data: unknown[] }>().data).toHaveLength(4);
  });

  it('lists pings filed in the monitor index and pings not filed yet alike, in order, and deletes both', async () => {
    const a = await heartbeat({ schedule: { every_seconds: 3600 } });
    const b = await heartbeat({ schedule: { every_seconds: 3600 } });
    const tables = t.db.database.tables();
    const unfiled = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from heartbeat_signal where filed = 0`.execute(tables)).rows[0]!
          .n,
      );
    const send = async (path: string, count: number, tag: string) => {
      for (let i = 0; i < count; i += 100) {
        const group = Array.from({ length: Math.min(100, count - i) }, (_, j) => ping(path, 'POST', `${tag} ${i + j}`));
        expect((await Promise.all(group)).every((r) => r.statusCode === 200)).toBe(true);
        clock.advance(1);
      }
    };
    /** Every ping of a monitor, page by page through the cursor. */
    const allPings = async (id: string, pageSize: number) => {
      const out: Array<Ping & { id: string }> = [];
      let cursor = '';
      for (;;) {
        const page = await call('GET', `/api/v1/monitors/${id}/pings?limit=${pageSize}${cursor}`);
        expect(page.statusCode, page.body).toBe(200);
        const body = page.json<{ data: Array<Ping & { id: string }>; next_cursor: string | null }>();
        out.push(...body.data);
        if (body.next_cursor === null) return out;
        cursor = `&cursor=${encodeURIComponent(body.next_cursor)}`;
      }
    };
    const before = await unfiled();
    await send(a.path, 30, 'early');
    // SQLite stores a batch's common pings outside the monitor index until about a thousand have gathered.
    if (dialect === 'sqlite') expect(await unfiled()).toBe(before + 30);
    else expect(await unfiled()).toBe(0);
    await send(b.path, 1000, 'b');
    // The batch after a thousand have gathered files them before storing its own.
    await send(a.path, 5, 'late');
    expect(await unfiled()).toBeLessThan(1000);
    const listed = await allPings(a.id, 7);
    expect(listed).toHaveLength(35);
    expect(new Set(listed.map((p) => p.body))).toEqual(
      new Set([
        ...Array.from({ length: 30 }, (_, i) => `early ${i}`),
        ...Array.from({ length: 5 }, (_, i) => `late ${i}`),
      ]),
    );
    const ids = listed.map((p) => p.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(await allPings(b.id, 200)).toHaveLength(1000);
    expect((await call('DELETE', `/api/v1/monitors/${a.id}`)).statusCode).toBe(204);
    const left = await sql<{
      n: number;
    }>`select count(*) as n from heartbeat_signal where monitor_id = ${a.id}`.execute(tables);
    expect(Number(left.rows[0]!.n)).toBe(0);
  });

  it('keeps the first 100 KB of a body and says it was truncated', async () => {
    const hb = await heartbeat({ schedule: { every_seconds: 3600 } });
    const big = 'x'.repeat(150 * 1024);
    const r = await ping(hb.path, 'POST', big);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ truncated: true });
    clock.advance(1_000);
    const exact = await ping(hb.path, 'POST', 'y'.repeat(100 * 1024));
    expect(exact.json()).toMatchObject({ truncated: false });
    const full = await pings(hb.id, '?full_body=1');
    expect(full.data[1]).toMatchObject({ truncated: true, body_bytes: 150 * 1024, body_preview: false });
    expect(full.data[1]!.body).toHaveLength(100 * 1024);
    expect(full.data[0]).toMatchObject({ truncated: false, body_bytes: 100 * 1024 });
    const preview = await pings(hb.id);
    expect(preview.data[1]).toMatchObject({ body_preview: true, truncated: true });
    expect(preview.data[1]!.body).toHaveLength(1000);
  });

  it('an unknown token, an unknown key and another organization’s slug are the same 404', async () => {
    const hb = await heartbeat({ schedule: { every_seconds: 3600 }, slug: 'backup' });
    const other = await t.createOrg();
    const key = (
      await call('PATCH', '/api/v1/auth/organization/heartbeats', { ping_key: 'rotate' }, other.apiKey)
    ).json<{ ping_key: string }>().ping_key;
    const answers = await Promise.all([
      ping('/api/v1/heartbeats/nope'),
      ping('/api/v1/heartbeats/nope/start'),
      ping(`/api/v1/ping/${key}/backup`), // a slug of the first organization under the second's key
      ping('/api/v1/ping/unknown-key/backup'),
    ]);
    const withoutRequestId = (body: { error: Record<string, unknown> }) => ({ ...body.error, request_id: null });
    for (const a of answers) {
      expect(a.statusCode).toBe(404);
      expect(withoutRequestId(a.json())).toEqual(withoutRequestId(answers[0]!.json()));
    }
    expect((await ping(hb.path)).statusCode).toBe(200);
  });

  it('the ping key names monitors by slug; ?create=1 makes one only when the organization allows it', async () => {
    const org = await t.createOrg();
    const k = org.apiKey;
    const settings = await call('GET', '/api/v1/auth/organization/heartbeats', undefined, k);
    expect(settings.json()).toEqual({ ping_key: null, heartbeat_auto_create: false });
    const made = await call('PATCH', '/api/v1/auth/organization/heartbeats', { ping_key: 'rotate' }, k);
    const key = made.json<{ ping_key: string }>().ping_key;
    expect(key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const created = await call(
      'POST',
      '/api/v1/monitors',
      { type: 'heartbeat', name: 'db backup', config: { slug: 'db-backup', schedule: { every_seconds: 3600 } } },
      k,
    );
    const id = created.json<{ id: string }>().id;
    expect((await ping(`/api/v1/ping/${key}/db-backup/start?rid=x`)).json()).toMatchObject({ monitor_id: id });
    expect((await ping(`/api/v1/ping/${key}/db-backup?rid=x`)).json()).toMatchObject({ monitor_id: id });
    // The slug is unique in the organization.
    const twin = await call(
      'POST',
      '/api/v1/monitors',
      { type: 'heartbeat', config: { slug: 'db-backup', schedule: { every_seconds: 3600 } } },
      k,
    );
    expect(twin.statusCode).toBe(422);
    expect(twin.json()).toMatchObject({ error: { details: [{ field: 'config.slug' }] } });
    // create=1 refused while the organization does not allow it.
    expect((await ping(`/api/v1/ping/${key}/new-job?create=1`)).statusCode).toBe(404);
    await call('PATCH', '/api/v1/auth/organization/heartbeats', { heartbeat_auto_create: true }, k);
    const first = await ping(`/api/v1/ping/${key}/new-job?create=1`);
    expect(first.statusCode).toBe(200);
    const newId = first.json<{ monitor_id: string }>().monitor_id;
    const monitor = await call('GET', `/api/v1/monitors/${newId}`, undefined, k);
    expect(monitor.json()).toMatchObject({ type: 'heartbeat', name: 'new-job', config: { slug: 'new-job' } });
    expect((await ping(`/api/v1/ping/${key}/new-job?create=1`)).json()).toMatchObject({ monitor_id: newId });
    // Without create=1 an unknown slug stays a 404.
    expect((await ping(`/api/v1/ping/${key}/other-job`)).statusCode).toBe(404);
    // Rotating the key ends the old one at once; the audit log has both changes (the key masked).
    const rotated = await call('PATCH', '/api/v1/auth/organization/heartbeats', { ping_key: 'rotate' }, k);
    const newKey = rotated.json<{ ping_key: string }>().ping_key;
    expect(newKey).not.toBe(key);
    expect((await ping(`/api/v1/ping/${key}/db-backup`)).statusCode).toBe(404);
    expect((await ping(`/api/v1/ping/${newKey}/db-backup`)).statusCode).toBe(200);
    const audit = await call('GET', '/api/v1/audit-log?limit=10', undefined, k);
    const actions = audit.json<{ data: Array<{ action: string }> }>().data.map((e) => e.action);
    expect(actions).toContain('heartbeat_settings.rotate_ping_key');
    expect(actions).toContain('heartbeat_settings.update');
    expect(audit.body).not.toContain(newKey);
    // A member may not change the settings.
    const member = await t.createOrg({ role: 'member' });
    const refused = await call('PATCH', '/api/v1/auth/organization/heartbeats', { ping_key: 'rotate' }, member.apiKey);
    expect(refused.statusCode).toBe(403);
  });

  it.each([
    [{ schedule: { cron: '30 2 31 2 *' } }, 'config.schedule.cron', /never fires/],
    [{ schedule: { cron: '61 * * * *' } }, 'config.schedule.cron', /minute 61/],
    [{ schedule: { cron: '0 3 * * *', timezone: 'Mars/Olympus' } }, 'config.schedule.timezone', /IANA/],
    [{ schedule: { cron: '0 3 * * *', every_seconds: 60 } }, 'config.schedule', /either/],
    [{ schedule: {} }, 'config.schedule', /either/],
    [{ schedule: { every_seconds: 60, timezone: 'UTC' } }, 'config.schedule.timezone', /only goes with cron/],
    [{ schedule: { every_seconds: 60 }, slug: 'Not A Slug' }, 'config.slug', /lower-case/],
    [{ schedule: { every_seconds: 60 }, max_run_seconds: 0 }, 'config.max_run_seconds', /./],
  ])('refuses %j naming %s', async (config, field, issue) => {
    const r = await call('POST', '/api/v1/monitors', { type: 'heartbeat', config });
    expect(r.statusCode, r.body).toBe(422);
    const detail = r.json<{ error: { details: Array<{ field: string; issue: string }> } }>().error.details;
    expect(detail).toContainEqual({ field, issue: expect.stringMatching(issue) });
  });

  it('refuses a schedule faster than the plan floor (team: 300 s in this test)', async () => {
    const pro = await t.createOrg({ plan: 'team' });
    const fast = await call(
      'POST',
      '/api/v1/monitors',
      { type: 'heartbeat', interval_seconds: 300, config: { schedule: { cron: '*/2 * * * *' } } },
      pro.apiKey,
    );
    expect(fast.statusCode).toBe(422);
    expect(fast.json().error.details).toContainEqual({
      field: 'config.schedule.cron',
      issue: "fires every 120 seconds at its fastest; the plan's interval floor is 300 seconds",
    });
    const every = await call(
      'POST',
      '/api/v1/monitors',
      { type: 'heartbeat', interval_seconds: 300, config: { schedule: { every_seconds: 60 } } },
      pro.apiKey,
    );
    expect(every.json().error.details).toContainEqual({
      field: 'config.schedule.every_seconds',
      issue: "must be at least the plan's interval floor (300 seconds)",
    });
    const ok = await call(
      'POST',
      '/api/v1/monitors',
      { type: 'heartbeat', interval_seconds: 300, config: { schedule: { cron: '*/5 * * * *' } } },
      pro.apiKey,
    );
    expect(ok.statusCode).toBe(201);
  });

  it('keeps heartbeat monitors without a schedule on their interval and old grace', async () => {
    const r = await call('POST', '/api/v1/monitors', { type: 'heartbeat', interval_seconds: 3600 });
    expect(r.json()).toMatchObject({ config: { grace_seconds: 720, failure_threshold: 2 } });
    expect(r.json().config.schedule).toBeUndefined();
  });
});
