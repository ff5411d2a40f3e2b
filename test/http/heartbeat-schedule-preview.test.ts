import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

const URL = '/api/v1/monitors/heartbeat-schedule-preview';
// Saturday 28 March 2026, 06:00 UTC: Berlin moves from CET (+1) to CEST (+2) in the night to Sunday.
const BEFORE_DST = Date.parse('2026-03-28T06:00:00Z');

describe('POST /monitors/heartbeat-schedule-preview', () => {
  let t: TestApp;
  let org: TestOrg;
  let team: TestOrg;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock(BEFORE_DST);
    t = await createTestApp({
      clock,
      configFile: { plans: { enterprise: { interval_floor_seconds: 1 }, team: { interval_floor_seconds: 120 } } },
    });
    org = await t.createOrg();
    team = await t.createOrg({ plan: 'team' });
  });
  afterAll(async () => t.close());

  async function preview(body: unknown, key: string | null = org.apiKey): Promise<{ status: number; body: Json }> {
    const res = await t.tocsin.app.inject({
      method: 'POST',
      url: URL,
      headers: { 'content-type': 'application/json', ...(key !== null && bearer(key)) },
      payload: JSON.stringify(body),
    });
    return { status: res.statusCode, body: res.json() as Json };
  }
  const issues = (body: Json) => (body.error.details as Json[]).map((d) => [d.field, d.issue]);

  it('every 90 minutes: the next three pings are now plus each period, with the default grace', async () => {
    const res = await preview({ schedule: { every_seconds: 5400 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      next: ['2026-03-28T07:30:00.000Z', '2026-03-28T09:00:00.000Z', '2026-03-28T10:30:00.000Z'],
      grace_seconds: 60,
    });
  });

  it('a cron in Europe/Berlin across the change to summer time: 09:00 local is 08:00 UTC, then 07:00 UTC', async () => {
    const res = await preview({ schedule: { cron: '0 9 * * *', timezone: 'Europe/Berlin' }, grace_seconds: 900 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      next: ['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'],
      grace_seconds: 900,
    });
  });

  it('@ forms and UTC by default', async () => {
    const res = await preview({ schedule: { cron: '@daily' } });
    expect(res.status).toBe(200);
    expect(res.body.next).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-30T00:00:00.000Z', '2026-03-31T00:00:00.000Z']);
  });

  it('a bad cron, one that never fires and an unknown zone: the 422 a save gives, naming config.schedule.*', async () => {
    const bad = await preview({ schedule: { cron: '61 * * * *', timezone: 'Europe/Berlin' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(issues(bad.body).map(([f]) => f)).toEqual(['config.schedule.cron']);

    const never = await preview({ schedule: { cron: '0 0 31 2 *' } });
    expect(never.status).toBe(422);
    expect(issues(never.body)).toEqual([['config.schedule.cron', 'never fires (no month has that day)']]);

    const zone = await preview({ schedule: { cron: '0 9 * * *', timezone: 'Europe/Atlantis' } });
    expect(zone.status).toBe(422);
    expect(issues(zone.body)).toEqual([['config.schedule.timezone', 'must be an IANA time zone such as Europe/Paris']]);

    // The same body saved as a monitor is refused with the same details.
    const saved = await t.tocsin.app.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      headers: { 'content-type': 'application/json', ...bearer(org.apiKey) },
      payload: JSON.stringify({
        type: 'heartbeat',
        config: { schedule: { cron: '0 9 * * *', timezone: 'Europe/Atlantis' } },
      }),
    });
    expect(saved.statusCode).toBe(422);
    expect(issues(saved.json() as Json)).toEqual(issues(zone.body));
  });

  it("faster than the plan's floor, as every_seconds or as cron", async () => {
    const every = await preview({ schedule: { every_seconds: 60 } }, team.apiKey);
    expect(every.status).toBe(422);
    expect(issues(every.body)).toEqual([
      ['config.schedule.every_seconds', "must be at least the plan's interval floor (120 seconds)"],
    ]);
    const cron = await preview({ schedule: { cron: '* * * * *' } }, team.apiKey);
    expect(cron.status).toBe(422);
    expect(issues(cron.body)).toEqual([
      ['config.schedule.cron', "fires every 60 seconds at its fastest; the plan's interval floor is 120 seconds"],
    ]);
    expect((await preview({ schedule: { every_seconds: 120 } }, team.apiKey)).status).toBe(200);
  });

  it('shape problems are named under config too, with the rules of the rest', async () => {
    const res = await preview({ schedule: { every_seconds: 'often' }, grace_seconds: -1 });
    expect(res.status).toBe(422);
    const fields = issues(res.body).map(([f]) => f);
    expect(fields).toContain('config.schedule.every_seconds');
    expect(fields).toContain('config.grace_seconds');
    const none = await preview({});
    expect(none.status).toBe(422);
    expect(issues(none.body)).toEqual([['config.schedule', 'is required']]);
    const both = await preview({ schedule: { every_seconds: 300, cron: '@hourly' } });
    expect(issues(both.body)).toEqual([['config.schedule', 'must have either every_seconds or cron']]);
  });

  it('unauthenticated: 401; a key without monitors:read: 403', async () => {
    const anonymous = await preview({ schedule: { every_seconds: 300 } }, null);
    expect(anonymous.status).toBe(401);
    const unscoped = await t.createOrg({ scopes: ['incidents:read'] });
    const refused = await preview({ schedule: { every_seconds: 300 } }, unscoped.apiKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('insufficient_scope');
  });
});
