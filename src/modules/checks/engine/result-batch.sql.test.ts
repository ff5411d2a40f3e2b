/**
 * The SQL of the check engine's result batch, pinned per dialect on a recording database (test/support): the
 * monitors' advisory locks (PostgreSQL only), the state read and upsert, the execution insert (PostgreSQL: keys from
 * the sequence with RETURNING; SQLite: max(id) + 1… under its one writer) and the rollups' lock and upsert
 * (PostgreSQL: an upsert that creates or locks the rows; SQLite: a read). A run with SQLite only still sees a change to
 * the PostgreSQL text; the repositories' own tests run the statements on both databases.
 */
import { describe, expect, it } from 'vitest';
import { sqlPerDialect } from '../../../../test/support/recording-database.ts';
import { ExecutionsRepository, type NewExecutionRow } from '../executions/executions.repository.ts';
import { RollupsRepository } from '../rollups/rollups.repository.ts';
import { CheckStateRepository } from '../state/check-state.repository.ts';

const execution = (monitor_key: number): NewExecutionRow => ({
  monitor_key,
  region_key: 1,
  started_at: 1_000,
  down: 0,
  duration_ms: 42,
  dns_ms: null,
  connect_ms: null,
  tls_ms: null,
  ttfb_ms: null,
  download_ms: null,
  total_ms: null,
  http_status: 200,
  shape_key: null,
  detail: null,
});

describe('check engine result batch SQL per dialect', () => {
  it('check state: advisory locks on PostgreSQL, then the read and the upsert', async () => {
    const counters = {
      regionCode: 'eu',
      successes: 1,
      failures: 0,
      lastAt: 1_000,
      lastStatus: 'up' as const,
      lastCause: null,
      failingSince: null,
    };
    expect(
      await sqlPerDialect(async (db) => {
        const repo = new CheckStateRepository(db);
        await repo.lockMonitors(['mon_2', 'mon_1']);
        await repo.load(['mon_1', 'mon_2']);
        await repo.save([{ monitorId: 'mon_1', counters }]);
      }),
    ).toMatchInlineSnapshot(`
      {
        "postgres": [
          "select pg_advisory_xact_lock(k) from (select hashtextextended(x, 7406) as k from unnest($1::text[]) as x order by 1) s",
          "select * from "check_state" where "monitor_id" in ($1, $2)",
          "insert into "check_state" ("monitor_id", "region_code", "successes", "failures", "last_at", "last_status", "last_cause", "failing_since", "impaired", "fast") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict ("monitor_id", "region_code") do update set "successes" = "excluded"."successes", "failures" = "excluded"."failures", "last_at" = "excluded"."last_at", "last_status" = "excluded"."last_status", "last_cause" = "excluded"."last_cause", "failing_since" = "excluded"."failing_since", "impaired" = "excluded"."impaired", "fast" = "excluded"."fast"",
        ],
        "sqlite": [
          "select * from "check_state" where "monitor_id" in (?, ?)",
          "insert into "check_state" ("monitor_id", "region_code", "successes", "failures", "last_at", "last_status", "last_cause", "failing_since", "impaired", "fast") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("monitor_id", "region_code") do update set "successes" = "excluded"."successes", "failures" = "excluded"."failures", "last_at" = "excluded"."last_at", "last_status" = "excluded"."last_status", "last_cause" = "excluded"."last_cause", "failing_since" = "excluded"."failing_since", "impaired" = "excluded"."impaired", "fast" = "excluded"."fast"",
        ],
      }
    `);
  });

  it('executions: keys from the sequence on PostgreSQL, after max(id) on SQLite', async () => {
    const inserted = ({ sql }: { sql: string }) =>
      sql.includes('returning')
        ? [
            { id: 1, monitor_key: 1, started_at: 1_000 },
            { id: 2, monitor_key: 2, started_at: 1_000 },
          ]
        : [];
    expect(
      await sqlPerDialect(
        (db) => new ExecutionsRepository(db).insertExecutions([execution(1), execution(2)]),
        inserted,
      ),
    ).toMatchInlineSnapshot(`
      {
        "postgres": [
          "insert into "execution" ("monitor_key", "region_key", "started_at", "down", "duration_ms", "dns_ms", "connect_ms", "tls_ms", "ttfb_ms", "download_ms", "total_ms", "http_status", "shape_key", "detail") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14), ($15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28) returning "id", "monitor_key", "started_at"",
        ],
        "sqlite": [
          "select max("id") as "m" from "execution"",
          "insert into "execution" ("id", "monitor_key", "region_key", "started_at", "down", "duration_ms", "dns_ms", "connect_ms", "tls_ms", "ttfb_ms", "download_ms", "total_ms", "http_status", "shape_key", "detail") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ],
      }
    `);
  });

  it('rollups: PostgreSQL creates or locks the rows in one upsert, SQLite reads them; both upsert the sums', async () => {
    const key = { monitor_key: 1, hour_start: 0, region_key: 1 };
    expect(
      await sqlPerDialect(async (db) => {
        const repo = new RollupsRepository(db);
        await repo.lockForUpdate([key]);
        await repo.write([{ ...key, checks: 1, failures: 0, downtime_ms: 0, sketch: null }]);
        await new RollupsRepository(db, 'execution_rollup_day').write([
          { ...key, checks: 1, failures: 0, downtime_ms: 0, sketch: null },
        ]);
      }),
    ).toMatchInlineSnapshot(`
      {
        "postgres": [
          "insert into "execution_rollup" ("monitor_key", "hour_start", "region_key", "checks", "failures", "downtime_ms", "sketch") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("monitor_key", "hour_start", "region_key") do update set "checks" = "execution_rollup"."checks" returning *",
          "insert into "execution_rollup" ("monitor_key", "hour_start", "region_key", "checks", "failures", "downtime_ms", "sketch") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("monitor_key", "hour_start", "region_key") do update set "checks" = "excluded"."checks", "failures" = "excluded"."failures", "downtime_ms" = "excluded"."downtime_ms", "sketch" = "excluded"."sketch"",
          "insert into "execution_rollup_day" ("monitor_key", "hour_start", "region_key", "checks", "failures", "downtime_ms", "sketch") values ($1, $2, $3, $4, $5, $6, $7) on conflict ("monitor_key", "hour_start", "region_key") do update set "checks" = "excluded"."checks", "failures" = "excluded"."failures", "downtime_ms" = "excluded"."downtime_ms", "sketch" = "excluded"."sketch"",
        ],
        "sqlite": [
          "select * from "execution_rollup" where ("monitor_key", "hour_start", "region_key") in ((?, ?, ?))",
          "insert into "execution_rollup" ("monitor_key", "hour_start", "region_key", "checks", "failures", "downtime_ms", "sketch") values (?, ?, ?, ?, ?, ?, ?) on conflict ("monitor_key", "hour_start", "region_key") do update set "checks" = "excluded"."checks", "failures" = "excluded"."failures", "downtime_ms" = "excluded"."downtime_ms", "sketch" = "excluded"."sketch"",
          "insert into "execution_rollup_day" ("monitor_key", "hour_start", "region_key", "checks", "failures", "downtime_ms", "sketch") values (?, ?, ?, ?, ?, ?, ?) on conflict ("monitor_key", "hour_start", "region_key") do update set "checks" = "excluded"."checks", "failures" = "excluded"."failures", "downtime_ms" = "excluded"."downtime_ms", "sketch" = "excluded"."sketch"",
        ],
      }
    `);
  });
});
