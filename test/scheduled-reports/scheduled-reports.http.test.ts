/**
 * The scheduled-reports API on SQLite and PostgreSQL: CRUD with the fields of the spec, read-only next_run_at /
 * last_run_at / last_status, recomputation of next_run_at, enabled:false, run-now (202, next_run_at unchanged), and
 * every bad input of DECISIONS §8/§12 as a 422 naming the field with nothing created or changed; scopes, plan gate and
 * other organizations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const BASE = '/api/v1/scheduled-reports';

/** An organization whose key's budgets do not run out while the ManualClock stands still. */
async function roomyOrg(t: TestApp): Promise<TestOrg> {
  const org = await t.createOrg();
  const key = await t.tocsin.services.auth.issueKey({
    organizationId: org.organizationId,
    name: 'roomy',
    scopes: [...SCOPES],
    environments: ['production'],
    userId: org.userId,
    createdBy: org.userId,
    rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
  });
  return { ...org, apiKey: key.key, keyId: key.id };
}

describe.each(testDialects())('scheduled reports API on %s', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let other: TestOrg;
  let email: string;
  let pager: string;
  let incidentTool: string;
  let otherOrgsDestination: string;
  const clock = new ManualClock('2026-11-24T10:00:00.000Z');

  const create = async (key: string, type: string, config: Record<string, unknown>) => {
    const res = await api(t, key, 'POST', WEBHOOKS, { type, name: `${type} dest`, config });
    if (res.status !== 201) throw new Error(`destination: ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  const count = async () => ((await api(t, org.apiKey, 'GET', `${BASE}?limit=200`)).body.data as Json[]).length;

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock, configFile: { plans: { team: { reports: false } } } });
    org = await roomyOrg(t);
    other = await roomyOrg(t);
    email = await create(org.apiKey, 'email', { address: 'reports@example.com' });
    pager = await create(org.apiKey, 'oncall_pager1', { integration_key: 'k'.repeat(32) });
    incidentTool = await create(org.apiKey, 'incident_tool2', { api_key: 'secret-api-key' });
    otherOrgsDestination = await create(other.apiKey, 'email', { address: 'other@example.com' });
  });
  afterAll(() => t.close());

  const weekly = () => ({
    report_type: 'availability',
    frequency: 'weekly',
    day_of_week: 1,
    time_of_day: '08:00',
    timezone: 'Europe/Berlin',
    destination_ids: [email],
  });

  it('creates with exactly the spec fields, computes next_run_at in the zone and starts never_run', async () => {
    const res = await api(t, org.apiKey, 'POST', BASE, weekly());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'report_type',
        'custom_report_id',
        'frequency',
        'day_of_week',
        'day_of_month',
        'time_of_day',
        'timezone',
        'destination_ids',
        'enabled',
        'next_run_at',
        'last_run_at',
        'last_status',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      report_type: 'availability',
      custom_report_id: null,
      frequency: 'weekly',
      day_of_week: 1,
      day_of_month: null,
      enabled: true,
      last_run_at: null,
      last_status: 'never_run',
      // 2026-11-24 is a Tuesday: the next Monday is 2026-11-30, 08:00 CET = 07:00Z.
      next_run_at: '2026-11-30T07:00:00.000Z',
    });
    expect(res.body.id).toMatch(/^srp_[0-9a-z]{26}$/);
    const read = await api(t, org.apiKey, 'GET', `${BASE}/${res.body.id}`);
    expect(read.body).toEqual(res.body);
  });

  it('lists with a cursor', async () => {
    await api(t, org.apiKey, 'POST', BASE, { ...weekly(), day_of_week: 2 });
    const first = await api(t, org.apiKey, 'GET', `${BASE}?limit=1`);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api(t, org.apiKey, 'GET', `${BASE}?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('recomputes next_run_at when the frequency, day, time or zone change; read-only fields are refused', async () => {
    const created = (await api(t, org.apiKey, 'POST', BASE, weekly())).body as Json;
    const url = `${BASE}/${created.id}`;
    let res = await api(t, org.apiKey, 'PATCH', url, { time_of_day: '09:15' });
    expect(res.body.next_run_at).toBe('2026-11-30T08:15:00.000Z');
    res = await api(t, org.apiKey, 'PATCH', url, { timezone: 'Asia/Kathmandu' });
    expect(res.body.next_run_at).toBe('2026-11-30T03:30:00.000Z');
    // Changing the frequency drops the weekly day; monthly needs its day.
    res = await api(t, org.apiKey, 'PATCH', url, { frequency: 'monthly' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'day_of_month', issue: expect.stringContaining('required') }]);
    res = await api(t, org.apiKey, 'PATCH', url, { frequency: 'monthly', day_of_month: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ day_of_week: null, day_of_month: 3, next_run_at: '2026-12-03T03:30:00.000Z' });
    res = await api(t, org.apiKey, 'PATCH', url, { frequency: 'quarterly' });
    expect(res.body.next_run_at).toBe('2027-01-03T03:30:00.000Z');
    res = await api(t, org.apiKey, 'PATCH', url, { day_of_month: 28, frequency: 'daily' });
    expect(res.status).toBe(422);
    for (const field of ['next_run_at', 'last_run_at', 'last_status', 'id']) {
      const r = await api(t, org.apiKey, 'PATCH', url, { [field]: '2027-01-01T00:00:00Z' });
      expect(r.status, field).toBe(422);
      expect(r.body.error.details[0].field).toBe(field);
    }
    res = await api(t, org.apiKey, 'PATCH', url, { frequency: 'daily', day_of_month: null });
    expect(res.body).toMatchObject({ frequency: 'daily', day_of_month: null, next_run_at: '2026-11-25T03:30:00.000Z' });
  });

  it('enabled:false pauses without deleting; enabling again recomputes next_run_at from now', async () => {
    const created = (
      await api(t, org.apiKey, 'POST', BASE, { ...weekly(), frequency: 'daily', day_of_week: undefined })
    ).body as Json;
    const url = `${BASE}/${created.id}`;
    const paused = await api(t, org.apiKey, 'PATCH', url, { enabled: false });
    expect(paused.body.enabled).toBe(false);
    expect((await api(t, org.apiKey, 'GET', url)).status).toBe(200);
    clock.advance(3 * 86_400_000);
    const resumed = await api(t, org.apiKey, 'PATCH', url, { enabled: true });
    expect(resumed.body.enabled).toBe(true);
    // Now 2026-11-27T10:00Z (11:00 in Berlin): the next 08:00 is tomorrow's, not one of the days passed while paused.
    expect(resumed.body.next_run_at).toBe('2026-11-28T07:00:00.000Z');
  });

  it('POST /{id}/run answers 202 and does not move next_run_at', async () => {
    const created = (await api(t, org.apiKey, 'POST', BASE, weekly())).body as Json;
    const res = await api(t, org.apiKey, 'POST', `${BASE}/${created.id}/run`);
    expect(res.status).toBe(202);
    expect(res.body.next_run_at).toBe(created.next_run_at);
    expect((await api(t, other.apiKey, 'POST', `${BASE}/${created.id}/run`)).status).toBe(404);
  });

  it('DELETE removes it; another organization sees 404 for every operation', async () => {
    const created = (await api(t, org.apiKey, 'POST', BASE, weekly())).body as Json;
    const url = `${BASE}/${created.id}`;
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expect(
        (await api(t, other.apiKey, method, url, method === 'PATCH' ? { enabled: false } : undefined)).status,
      ).toBe(404);
    }
    expect((await api(t, org.apiKey, 'DELETE', url)).status).toBe(204);
    expect((await api(t, org.apiKey, 'GET', url)).status).toBe(404);
    expect((await api(t, org.apiKey, 'GET', `${BASE}/srp_nonsense`)).status).toBe(404);
  });

  const BAD: Array<[string, (b: Json) => Json, string]> = [
    ['a cron expression', (b) => ({ ...b, cron: '0 8 * * 1' }), 'cron'],
    ['a schedule field of another product', (b) => ({ ...b, schedule: 'weekly' }), 'schedule'],
    ['weekly without day_of_week', (b) => ({ ...b, day_of_week: undefined }), 'day_of_week'],
    ['weekly with day_of_month', (b) => ({ ...b, day_of_month: 3 }), 'day_of_month'],
    ['day_of_week with monthly', (b) => ({ ...b, frequency: 'monthly', day_of_month: 3 }), 'day_of_week'],
    ['monthly without day_of_month', (b) => ({ ...b, frequency: 'monthly', day_of_week: undefined }), 'day_of_month'],
    [
      'quarterly without day_of_month',
      (b) => ({ ...b, frequency: 'quarterly', day_of_week: undefined }),
      'day_of_month',
    ],
    ['daily with day_of_week', (b) => ({ ...b, frequency: 'daily' }), 'day_of_week'],
    [
      'day_of_month 29',
      (b) => ({ ...b, frequency: 'monthly', day_of_week: undefined, day_of_month: 29 }),
      'day_of_month',
    ],
    [
      'day_of_month 0',
      (b) => ({ ...b, frequency: 'monthly', day_of_week: undefined, day_of_month: 0 }),
      'day_of_month',
    ],
    ['day_of_week 7', (b) => ({ ...b, day_of_week: 7 }), 'day_of_week'],
    ['day_of_week -1', (b) => ({ ...b, day_of_week: -1 }), 'day_of_week'],
    ['day_of_week 1.5', (b) => ({ ...b, day_of_week: 1.5 }), 'day_of_week'],
    ['an unknown timezone', (b) => ({ ...b, timezone: 'Mars/Olympus_Mons' }), 'timezone'],
    ['an offset instead of a zone', (b) => ({ ...b, timezone: '+02:00' }), 'timezone'],
    ['HH:MM hour 24', (b) => ({ ...b, time_of_day: '24:00' }), 'time_of_day'],
    ['HH:MM minute 60', (b) => ({ ...b, time_of_day: '08:60' }), 'time_of_day'],
    ['H:MM', (b) => ({ ...b, time_of_day: '8:00' }), 'time_of_day'],
    ['HH:MM:SS', (b) => ({ ...b, time_of_day: '08:00:00' }), 'time_of_day'],
    ['an unknown frequency', (b) => ({ ...b, frequency: 'hourly' }), 'frequency'],
    ['an unknown report type', (b) => ({ ...b, report_type: 'uptime' }), 'report_type'],
    ['custom without custom_report_id', (b) => ({ ...b, report_type: 'custom' }), 'custom_report_id'],
    [
      'custom_report_id with another type',
      (b) => ({ ...b, custom_report_id: 'crp_0000000000000000000000000a' }),
      'custom_report_id',
    ],
    [
      'a custom report that does not exist',
      (b) => ({ ...b, report_type: 'custom', custom_report_id: 'crp_0000000000000000000000000a' }),
      'custom_report_id',
    ],
    ['no destinations', (b) => ({ ...b, destination_ids: [] }), 'destination_ids'],
    ['a destination id that is not one', (b) => ({ ...b, destination_ids: ['slack'] }), 'destination_ids[0]'],
    ['no enabled boolean', (b) => ({ ...b, enabled: 'yes' }), 'enabled'],
  ];

  it.each(BAD)('refuses %s: 422 naming the field, nothing created', async (_name, change, field) => {
    const before = await count();
    const res = await api(t, org.apiKey, 'POST', BASE, change(weekly()));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: Json) => d.field)).toContain(field);
    expect(await count()).toBe(before);
  });

  it("names every problem in one answer: the schema's and the rules' (cron, 25:00, +02:00, weekly without a day)", async () => {
    const before = await count();
    const { day_of_week: _day, ...noDay } = weekly();
    const res = await api(t, org.apiKey, 'POST', BASE, {
      ...noDay,
      cron: '0 8 * * 1',
      time_of_day: '25:00',
      timezone: '+02:00',
      destination_ids: [email, pager],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'cron', issue: expect.stringContaining('is not a field of scheduled reports') },
      { field: 'time_of_day', issue: 'must be a local time HH:MM from 00:00 to 23:59' },
      { field: 'day_of_week', issue: 'is required with frequency weekly (0 = Sunday … 6 = Saturday)' },
      { field: 'timezone', issue: 'must be an IANA time zone such as Europe/Berlin' },
      { field: 'destination_ids[1]', issue: expect.stringContaining('oncall_pager1 destination cannot receive') },
    ]);
    expect(await count()).toBe(before);
  });

  it("a refused PATCH names the rules' problems too, checked on the record it would make, and changes nothing", async () => {
    const created = await api(t, org.apiKey, 'POST', BASE, weekly());
    expect(created.status).toBe(201);
    const url = `${BASE}/${created.body.id}`;
    const res = await api(t, org.apiKey, 'PATCH', url, {
      enabled: 'no',
      frequency: 'monthly',
      timezone: 'Mars/Olympus_Mons',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'enabled', issue: 'must be true or false' },
      { field: 'day_of_month', issue: 'is required with frequency monthly (1 to 28)' },
      { field: 'timezone', issue: 'must be an IANA time zone such as Europe/Berlin' },
    ]);
    expect((await api(t, org.apiKey, 'GET', url)).body).toEqual(created.body);
  });

  it('refuses destinations of another organization, pagers and incident tools, naming each index', async () => {
    const before = await count();
    const res = await api(t, org.apiKey, 'POST', BASE, {
      ...weekly(),
      destination_ids: [email, otherOrgsDestination, pager, incidentTool],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'destination_ids[1]', issue: expect.stringContaining('does not exist in this organization') },
      {
        field: 'destination_ids[2]',
        issue: expect.stringContaining('oncall_pager1 destination cannot receive reports'),
      },
      {
        field: 'destination_ids[3]',
        issue: expect.stringContaining('incident_tool2 destination cannot receive reports'),
      },
    ]);
    expect(await count()).toBe(before);
  });

  it('a refused update changes nothing', async () => {
    const created = (await api(t, org.apiKey, 'POST', BASE, weekly())).body as Json;
    const url = `${BASE}/${created.id}`;
    for (const patch of [{ destination_ids: [pager] }, { timezone: 'Nowhere/Land' }, { cron: '* * * * *' }]) {
      expect((await api(t, org.apiKey, 'PATCH', url, patch)).status).toBe(422);
    }
    expect((await api(t, org.apiKey, 'GET', url)).body).toEqual(created);
  });

  it('a key sees only schedules whose environments are all its own (a run reports on those)', async () => {
    const created = (await api(t, org.apiKey, 'POST', BASE, weekly())).body as Json;
    const staging = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'staging only',
      scopes: [...SCOPES],
      environments: ['staging'],
      userId: org.userId,
      createdBy: org.userId,
    });
    const url = `${BASE}/${created.id}`;
    expect((await api(t, staging.key, 'GET', url)).status).toBe(404);
    expect((await api(t, staging.key, 'POST', `${url}/run`)).status).toBe(404);
    expect((await api(t, staging.key, 'DELETE', url)).status).toBe(404);
    const list = (await api(t, staging.key, 'GET', `${BASE}?limit=200`)).body.data as Json[];
    expect(list.map((s) => s.id)).not.toContain(created.id);
    expect((await api(t, org.apiKey, 'GET', url)).status).toBe(200);
  });

  it('a destination deleted later does not block other changes; naming it again is refused', async () => {
    const spare = await create(org.apiKey, 'email', { address: 'spare@example.com' });
    const created = (await api(t, org.apiKey, 'POST', BASE, { ...weekly(), destination_ids: [email, spare] }))
      .body as Json;
    expect((await api(t, org.apiKey, 'DELETE', `${WEBHOOKS}/${spare}`)).status).toBe(204);
    const url = `${BASE}/${created.id}`;
    const paused = await api(t, org.apiKey, 'PATCH', url, { enabled: false, time_of_day: '07:00' });
    expect(paused.status).toBe(200);
    expect(paused.body.destination_ids).toEqual([email, spare]);
    const again = await api(t, org.apiKey, 'PATCH', url, { destination_ids: [email, spare] });
    expect(again.status).toBe(422);
    expect(again.body.error.details).toEqual([
      { field: 'destination_ids[1]', issue: expect.stringContaining('does not exist') },
    ]);
  });

  it('needs the scheduled_reports scopes and a plan with reports', async () => {
    const reader = await t.createOrg({ scopes: ['scheduled_reports:read'] });
    expect((await api(t, reader.apiKey, 'GET', BASE)).status).toBe(200);
    const denied = await api(t, reader.apiKey, 'POST', BASE, weekly());
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    const writer = await t.createOrg({ scopes: ['scheduled_reports:write'] });
    expect((await api(t, writer.apiKey, 'GET', BASE)).status).toBe(403);
    const team = await t.createOrg({ plan: 'team' });
    const gated = await api(t, team.apiKey, 'GET', BASE);
    expect(gated.status).toBe(403);
    expect(gated.body.error.code).toBe('plan_upgrade_required');
  });
});
