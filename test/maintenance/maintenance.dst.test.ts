/**
 * Recurring windows across DST through the API, on SQLite and PostgreSQL: a daily window at a local time in each of
 * seven zones (six with DST, one without), created and read back (`next_start_at`, `next_end_at`) as the clock moves
 * over the days around a transition, and a monitor it covers reading `maintenance` exactly inside each occurrence.
 * The expected UTC instants are worked out by hand from each zone's offsets (a time in a spring-forward gap moves
 * forward by the gap; a repeated time takes its first occurrence); the pure table is in
 * src/modules/maintenance/maintenance.rrule.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { clientOf } from '../reports/reports.helpers.ts';

const TABLE: Array<{ zone: string; time: string; from: string; expected: string[]; why: string }> = [
  {
    zone: 'Europe/Berlin',
    time: '02:30',
    from: '2027-03-27T00:00:00Z',
    expected: ['2027-03-27T01:30:00Z', '2027-03-28T01:30:00Z', '2027-03-29T00:30:00Z'],
    why: '28 Mar 02:30 does not exist (02:00 CET → 03:00 CEST): 03:30 CEST',
  },
  {
    zone: 'Europe/London',
    time: '01:30',
    from: '2026-10-24T00:00:00Z',
    expected: ['2026-10-24T00:30:00Z', '2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z'],
    why: '25 Oct 01:30 happens twice: the first, BST (+01:00)',
  },
  {
    zone: 'America/New_York',
    time: '02:30',
    from: '2027-03-13T00:00:00Z',
    expected: ['2027-03-13T07:30:00Z', '2027-03-14T07:30:00Z', '2027-03-15T06:30:00Z'],
    why: '14 Mar 02:30 is in the gap: 03:30 EDT',
  },
  {
    zone: 'Australia/Sydney',
    time: '02:30',
    from: '2027-04-02T00:00:00Z',
    expected: ['2027-04-02T15:30:00Z', '2027-04-03T15:30:00Z', '2027-04-04T16:30:00Z'],
    why: '4 Apr 02:30 happens twice: the first, AEDT (+11:00)',
  },
  {
    zone: 'Australia/Lord_Howe',
    time: '02:15',
    from: '2026-10-02T00:00:00Z',
    expected: ['2026-10-02T15:45:00Z', '2026-10-03T15:45:00Z', '2026-10-04T15:15:00Z'],
    why: 'a 30-minute shift: 4 Oct 02:15 does not exist, 02:45 (+11:00)',
  },
  {
    zone: 'Pacific/Auckland',
    time: '02:30',
    from: '2026-09-25T00:00:00Z',
    expected: ['2026-09-25T14:30:00Z', '2026-09-26T14:30:00Z', '2026-09-27T13:30:00Z'],
    why: '27 Sep 02:30 is in the gap: 03:30 NZDT (+13:00)',
  },
  {
    zone: 'Asia/Kolkata',
    time: '09:00',
    from: '2027-03-27T00:00:00Z',
    expected: ['2027-03-27T03:30:00Z', '2027-03-28T03:30:00Z', '2027-03-29T03:30:00Z'],
    why: 'no DST, +05:30 all year',
  },
];

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(testDialects())('recurring maintenance windows across DST through the API on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(TABLE)('$zone $time: $why', async ({ zone, time, from, expected }) => {
    clock.set(from);
    const org = await t.createOrg();
    const c = clientOf(t, org);
    const monitorId = await c.createMonitor({ name: `Host in ${zone}` });
    const created = await c.call('POST', '/api/v1/maintenance-windows', {
      name: `Nightly ${zone}`,
      monitor_ids: [monitorId],
      timezone: zone,
      schedule: {
        type: 'recurring',
        rrule: 'FREQ=DAILY',
        start_time: time,
        duration_minutes: 30,
        start_date: '2026-01-01',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    for (const start of expected.map(Date.parse)) {
      const read = await c.call('GET', `/api/v1/maintenance-windows/${id}`);
      expect(read.body).toMatchObject({
        active: false,
        next_start_at: iso(start),
        next_end_at: iso(start + 30 * MINUTE),
      });
      clock.set(start - MINUTE);
      expect((await c.call('GET', `/api/v1/monitors/${monitorId}`)).body.status).not.toBe('maintenance');
      clock.set(start + MINUTE);
      expect((await c.call('GET', `/api/v1/monitors/${monitorId}`)).body.status).toBe('maintenance');
      expect((await c.call('GET', `/api/v1/maintenance-windows/${id}`)).body).toMatchObject({ active: true });
      clock.set(start + 30 * MINUTE); // the end is exclusive: over at its last instant
      expect((await c.call('GET', `/api/v1/monitors/${monitorId}`)).body.status).not.toBe('maintenance');
    }
  });
});
