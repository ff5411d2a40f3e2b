/**
 * The SQL the scheduler's hot path sends, pinned per dialect on a recording database (test/support): the claim
 * (PostgreSQL: one UPDATE … FROM with `for update of l skip locked`; SQLite: a read, then an UPDATE guarded by the
 * due times read) and the per-batch release. A run with SQLite only still sees a change to the PostgreSQL text;
 * the schedule tests run the statements themselves on both databases.
 */
import { describe, expect, it } from 'vitest';
import { sqlSent } from '../../../../test/support/recording-database.ts';
import { ScheduleRepository } from './schedule.repository.ts';

const due = { monitor_id: 'mon_1', region_code: 'eu', next_due_at: 1_000 };
// The SQLite claim reads the candidates first: answer its read with one row, the rest with nothing.
const answer = ({ sql }: { sql: string }) =>
  sql.startsWith('select monitor_id, region_code, next_due_at') ? [due] : [];

describe('scheduler SQL per dialect', () => {
  it('claim: fair ranking; PostgreSQL skips locked rows in one statement, SQLite reads then updates', async () => {
    const claim = (d: 'sqlite' | 'postgres') =>
      sqlSent(d, (db) => new ScheduleRepository(db).claim('run_1', ['eu', 'us'], 1_000, 30_000, 10, 500), answer);
    expect({ sqlite: await claim('sqlite'), postgres: await claim('postgres') }).toMatchInlineSnapshot(`
      {
        "postgres": [
          "update check_schedule as s set lease_owner = $1, lease_until = $2 + greatest($3, "s"."timeout_ms" + $4), next_due_at = greatest($5, "s"."next_due_at") - ((greatest($6, "s"."next_due_at") - phase_ms) % interval_ms) + interval_ms from ( select l.monitor_id, l.region_code, l.next_due_at from check_schedule l join (select monitor_id, region_code, rk from ( select monitor_id, region_code, in_flight, row_number() over (partition by organization_id order by in_flight desc, next_due_at, monitor_id) as rk from (select monitor_id, region_code, organization_id, next_due_at, 1 as in_flight from check_schedule where region_code in ($7, $8) and lease_until >= $9 union all select monitor_id, region_code, organization_id, next_due_at, 0 as in_flight from check_schedule where region_code in ($10, $11) and next_due_at <= $12 and (lease_until is null or lease_until < $13)) candidates) ranked where in_flight = 0) r on r.monitor_id = l.monitor_id and r.region_code = l.region_code where l.next_due_at <= $14 and (l.lease_until is null or l.lease_until < $15) order by r.rk, l.next_due_at, l.monitor_id limit $16 for update of l skip locked) c where s.monitor_id = c.monitor_id and s.region_code = c.region_code returning s.monitor_id, s.region_code, s.organization_id, s.monitor_version, s.next_due_at - s.interval_ms as due_at, c.next_due_at as was_due_at",
        ],
        "sqlite": [
          "select monitor_id, region_code, next_due_at from check_schedule where region_code in (?, ?) and next_due_at <= ? and (lease_until is null or lease_until < ?) limit ?",
          "update check_schedule set lease_owner = ?, lease_until = ? + max(?, "timeout_ms" + ?), next_due_at = max(?, "next_due_at") - ((max(?, "next_due_at") - phase_ms) % interval_ms) + interval_ms where (monitor_id, region_code, next_due_at) in (values (?, ?, ?)) and (lease_until is null or lease_until < ?) returning monitor_id, region_code, organization_id, monitor_version, next_due_at - interval_ms as due_at",
        ],
      }
    `);
  });

  it('claim beyond the free slots: SQLite ranks the candidates too', async () => {
    const many = ({ sql }: { sql: string }) =>
      sql.startsWith('select monitor_id, region_code, next_due_at') ? [due, { ...due, monitor_id: 'mon_2' }] : [];
    expect(await sqlSent('sqlite', (db) => new ScheduleRepository(db).claim('run_1', ['eu'], 1_000, 30_000, 1), many))
      .toMatchInlineSnapshot(`
      [
        "select monitor_id, region_code, next_due_at from check_schedule where region_code in (?) and next_due_at <= ? and (lease_until is null or lease_until < ?) limit ?",
        "select s.monitor_id, s.region_code, s.next_due_at from check_schedule s join (select monitor_id, region_code, rk from ( select monitor_id, region_code, in_flight, row_number() over (partition by organization_id order by in_flight desc, next_due_at, monitor_id) as rk from (select monitor_id, region_code, organization_id, next_due_at, 1 as in_flight from check_schedule where region_code in (?) and lease_until >= ? union all select monitor_id, region_code, organization_id, next_due_at, 0 as in_flight from check_schedule where region_code in (?) and next_due_at <= ? and (lease_until is null or lease_until < ?)) candidates) ranked where in_flight = 0) r on r.monitor_id = s.monitor_id and r.region_code = s.region_code order by r.rk, s.next_due_at, s.monitor_id limit ?",
      ]
    `);
  });

  it('release: one precompiled statement per row count', async () => {
    const keys = [
      { monitorId: 'mon_1', regionCode: 'eu' },
      { monitorId: 'mon_2', regionCode: 'us' },
    ];
    const release = (d: 'sqlite' | 'postgres') => sqlSent(d, (db) => new ScheduleRepository(db).release('run_1', keys));
    expect({ sqlite: await release('sqlite'), postgres: await release('postgres') }).toMatchInlineSnapshot(`
      {
        "postgres": [
          "update "check_schedule" set "lease_owner" = $1, "lease_until" = $2 where ("monitor_id", "region_code") in (($3, $4), ($5, $6)) and "lease_owner" = $7",
        ],
        "sqlite": [
          "update "check_schedule" set "lease_owner" = ?, "lease_until" = ? where ("monitor_id", "region_code") in ((?, ?), (?, ?)) and "lease_owner" = ?",
        ],
      }
    `);
  });
});
