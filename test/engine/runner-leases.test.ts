/**
 * POST /api/v1/runners/results over a real port with a real runner token: only results for checks the runner
 * claimed and whose lease has not ended are recorded; anything else refuses the whole batch (409 naming each
 * such result) and changes nothing. The runner token is checked before the body.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteWorkSource, type CheckResult } from '../../src/modules/checks/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { countRows } from './engine.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

describe.each(testDialects())('runner results need a live lease of that runner (%s)', (dialect) => {
  let t: TestApp;
  let base: string;
  let token: string;
  const clock = new ManualClock(Date.parse('2026-05-01T00:00:00.000Z'));

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { regions: ['local', 'far'] } });
    await t.tocsin.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.tocsin.app.server.address() as AddressInfo).port}`;
    ({ token } = await t.tocsin.services.checks.runners.createToken('far'));
  });
  afterAll(async () => {
    await t.close();
  });

  /** A `far` monitor of a new organization (every 30 s unless `fields` say otherwise), due within its interval. */
  async function farMonitor(fields: Record<string, unknown> = {}): Promise<string> {
    const org = await t.createOrg();
    const created = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: bearer(org.apiKey),
      payload: { target: 'http://127.0.0.1:9/', interval_seconds: 30, region_codes: ['far'], ...fields },
    });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: string }>().id;
  }

  const downResult = (monitorId: string) => ({
    monitor_id: monitorId,
    region_code: 'far',
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
  });

  const post = async (path: string, body: unknown, auth: string | null = token) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...(auth && { authorization: `Bearer ${auth}` }), 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const claim = async () =>
    ((await post('/api/v1/runners/claim', { max: 100, wait_seconds: 0 })).body.checks as Json[]).map(
      (c) => c.monitor_id as string,
    );
  async function executionCount(monitorId: string): Promise<number> {
    const key = await countRows(t.tocsin.database, 'monitor_key', { monitor_id: monitorId });
    if (key === 0) return 0;
    return Number(
      (
        await t.tocsin.database
          .tables<{ execution: { monitor_key: number }; monitor_key: { id: number; monitor_id: string } }>()
          .selectFrom('execution')
          .innerJoin('monitor_key', 'monitor_key.id', 'execution.monitor_key')
          .where('monitor_key.monitor_id', '=', monitorId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  }
  const statusOf = async (id: string) => (await t.tocsin.services.monitors.findAnywhere(id))!.status;

  it('the runner token is checked before the body: no token or a bad one is 401 whatever the body', async () => {
    for (const auth of [null, 'trn_nope']) {
      for (const body of ['{not json', { results: 'nope' }, { results: [downResult('mon_x')] }]) {
        const res = await post('/api/v1/runners/results', body, auth);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('unauthorized');
      }
      expect((await post('/api/v1/runners/claim', { max: 'many' }, auth)).status).toBe(401);
    }
  });

  it("a result for a check the runner never claimed (another organization's monitor in its region) changes nothing", async () => {
    const victim = await farMonitor();
    clock.advance(6_000); // due, but nobody claimed it
    const res = await post('/api/v1/runners/results', { results: [downResult(victim), downResult(victim)] });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'conflict',
      details: [{ field: 'results[0]' }, { field: 'results[1]' }],
    });
    expect(await statusOf(victim)).toBe('pending');
    expect(await executionCount(victim)).toBe(0);
  });

  it('a claimed check is accepted once; the same result again, or after the lease ended, is refused', async () => {
    const id = await farMonitor();
    clock.advance(6_000);
    expect(await claim()).toContain(id);
    const first = await post('/api/v1/runners/results', { results: [downResult(id)] });
    expect(first).toEqual({ status: 200, body: { accepted: 1 } });
    const again = await post('/api/v1/runners/results', { results: [downResult(id)] });
    expect(again.status).toBe(409);
    expect(await executionCount(id)).toBe(1);

    clock.advance(30_000);
    expect(await claim()).toContain(id);
    clock.advance(31_000); // the 30 s lease has ended: the slot may be someone else's now
    const late = await post('/api/v1/runners/results', { results: [downResult(id)] });
    expect(late.status).toBe(409);
    expect(late.body.error.details).toEqual([{ field: 'results[0]', issue: expect.stringContaining(id) as unknown }]);
    expect(await executionCount(id)).toBe(1);
  });

  it('a check slower than the lease is leased for its timeout: its result is accepted until the timeout and the margin end', async () => {
    const id = await farMonitor({ interval_seconds: 60, config: { timeout_ms: 45_000 } });
    clock.advance(61_000);
    expect(await claim()).toContain(id);
    clock.advance(40_000); // past the configured 30 s lease, within the check's 45 s timeout
    const slow = await post('/api/v1/runners/results', { results: [downResult(id)] });
    expect(slow).toEqual({ status: 200, body: { accepted: 1 } });
    expect(await executionCount(id)).toBe(1);

    clock.advance(20_000);
    expect(await claim()).toContain(id);
    clock.advance(47_001); // 45 s timeout + 2 s margin: ended
    const late = await post('/api/v1/runners/results', { results: [downResult(id)] });
    expect(late.status).toBe(409);
    expect(await executionCount(id)).toBe(1);
  });

  it('a batch mixing a held lease and an unclaimed check records nothing; the runner drops the refused one and sends the rest', async () => {
    const mine = await farMonitor();
    clock.advance(6_000);
    expect(await claim()).toContain(mine);
    const mixed = await post('/api/v1/runners/results', { results: [downResult(mine), downResult('mon_unknown')] });
    expect(mixed.status).toBe(409);
    expect(mixed.body.error.details).toEqual([{ field: 'results[1]', issue: expect.any(String) as unknown }]);
    expect(await executionCount(mine)).toBe(0);

    const source = new RemoteWorkSource({ controlPlane: base, token });
    const asResult = (w: ReturnType<typeof downResult>): CheckResult => ({
      monitorId: w.monitor_id,
      regionCode: w.region_code,
      dueAt: w.due_at_ms,
      observation: w.observation as CheckResult['observation'],
    });
    expect(await source.submit([asResult(downResult('mon_unknown')), asResult(downResult(mine))])).toBe(1);
    expect(await executionCount(mine)).toBe(1);
  });
});
