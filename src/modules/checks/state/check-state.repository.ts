import { sql, type Kysely } from 'kysely';
import { PrecompiledQueries, type Database } from '../../../platform/db/index.ts';
import type { CheckStateRow, EngineTables } from '../engine/engine.tables.ts';
import type { RegionCounters } from './monitor-state.machine.ts';

const STATE_COLUMNS = [
  'monitor_id',
  'region_code',
  'successes',
  'failures',
  'last_at',
  'last_status',
  'last_cause',
  'failing_since',
  'impaired',
  'fast',
] as const satisfies ReadonlyArray<keyof CheckStateRow>;
const everyStateColumn: Exclude<keyof CheckStateRow, (typeof STATE_COLUMNS)[number]> extends never ? true : never =
  true;
void everyStateColumn;

/** Per-(monitor, region) counters of the state machine and the cert-notice days. */
export class CheckStateRepository {
  private readonly database: Database;
  private readonly queries: PrecompiledQueries;
  /**
   * `queries`: where the per-batch read and write keep their compiled statements (the engine's own, kept across its
   * transactions); a fresh one compiles them on every use.
   */
  constructor(database: Database, queries = new PrecompiledQueries()) {
    this.database = database;
    this.queries = queries;
  }

  private get db() {
    return this.database.tables<EngineTables>();
  }

  /**
   * Serialises concurrent result batches that touch the same monitors (PostgreSQL: transaction-scoped
   * advisory locks taken in a fixed order; SQLite has one writer already). Call first in the transaction.
   */
  async lockMonitors(monitorIds: readonly string[]): Promise<void> {
    if (this.database.dialect !== 'postgres' || monitorIds.length === 0) return;
    const ids = [...new Set(monitorIds)].sort();
    await sql`select pg_advisory_xact_lock(k) from (select hashtextextended(x, 7406) as k from unnest(${ids}::text[]) as x order by 1) s`.execute(
      this.db,
    );
  }

  async load(monitorIds: readonly string[]): Promise<Map<string, RegionCounters[]>> {
    const out = new Map<string, RegionCounters[]>();
    if (monitorIds.length === 0) return out;
    const rows = await this.queries.runRows<CheckStateRow, { monitor_id: string }>(
      this.db as Kysely<unknown>,
      'check_state.load',
      ['monitor_id'],
      [...new Set(monitorIds)].map((monitor_id) => ({ monitor_id })),
      (ids) =>
        this.db
          .selectFrom('check_state')
          .selectAll()
          .where(
            'monitor_id',
            'in',
            ids.map((r) => r.monitor_id),
          ),
    );
    for (const r of rows) {
      const list = out.get(r.monitor_id) ?? [];
      list.push({
        regionCode: r.region_code,
        successes: r.successes,
        failures: r.failures,
        lastAt: r.last_at === null ? null : Number(r.last_at),
        lastStatus: r.last_status as RegionCounters['lastStatus'],
        lastCause: r.last_cause,
        failingSince: r.failing_since === null ? null : Number(r.failing_since),
        impaired: r.impaired,
        fast: r.fast,
      });
      out.set(r.monitor_id, list);
    }
    return out;
  }

  async save(entries: ReadonlyArray<{ monitorId: string; counters: RegionCounters }>): Promise<void> {
    if (entries.length === 0) return;
    const rows: CheckStateRow[] = entries.map(({ monitorId, counters: c }) => ({
      monitor_id: monitorId,
      region_code: c.regionCode,
      successes: c.successes,
      failures: c.failures,
      last_at: c.lastAt,
      last_status: c.lastStatus,
      last_cause: c.lastCause,
      failing_since: c.failingSince ?? null,
      impaired: c.impaired ?? c.failures,
      fast: c.fast ?? c.successes,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await this.queries.runRows(
        this.db as Kysely<unknown>,
        'check_state.save',
        STATE_COLUMNS,
        rows.slice(i, i + 500),
        (placeholders) =>
          this.db
            .insertInto('check_state')
            .values(placeholders as never as CheckStateRow[])
            .onConflict((oc) =>
              oc.columns(['monitor_id', 'region_code']).doUpdateSet((eb) => ({
                successes: eb.ref('excluded.successes'),
                failures: eb.ref('excluded.failures'),
                last_at: eb.ref('excluded.last_at'),
                last_status: eb.ref('excluded.last_status'),
                last_cause: eb.ref('excluded.last_cause'),
                failing_since: eb.ref('excluded.failing_since'),
                impaired: eb.ref('excluded.impaired'),
                fast: eb.ref('excluded.fast'),
              })),
            ),
      );
    }
  }

  async removeMonitor(monitorId: string, keepRegions: readonly string[] = []): Promise<void> {
    let q = this.db.deleteFrom('check_state').where('monitor_id', '=', monitorId);
    if (keepRegions.length > 0) q = q.where('region_code', 'not in', [...keepRegions]);
    await q.execute();
    // Everything starts over (deleted, paused, resumed): a degradation that was going on is forgotten with it.
    if (keepRegions.length === 0) await this.endDegraded(monitorId);
  }

  /** The monitor became degraded at `since`; `announced`: its `degraded` event was recorded. */
  async startDegraded(monitorId: string, since: number, announced: boolean): Promise<void> {
    await this.db
      .insertInto('check_degraded')
      .values({ monitor_id: monitorId, since, announced: announced ? 1 : 0 })
      .onConflict((oc) => oc.column('monitor_id').doUpdateSet({ since, announced: announced ? 1 : 0 }))
      .execute();
  }

  /** Ends the monitor's degradation; returns what it was, or null when none was recorded. */
  async endDegraded(monitorId: string): Promise<{ since: number; announced: boolean } | null> {
    const row = await this.db
      .deleteFrom('check_degraded')
      .where('monitor_id', '=', monitorId)
      .returning(['since', 'announced'])
      .executeTakeFirst();
    return row ? { since: Number(row.since), announced: Number(row.announced) === 1 } : null;
  }

  async certNoticeDays(monitorIds: readonly string[]): Promise<Map<string, number>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('check_cert_notice')
      .selectAll()
      .where('monitor_id', 'in', [...monitorIds])
      .execute();
    return new Map(rows.map((r) => [r.monitor_id, Number(r.last_day)]));
  }

  async setCertNoticeDay(monitorId: string, day: number): Promise<void> {
    await this.db
      .insertInto('check_cert_notice')
      .values({ monitor_id: monitorId, last_day: day })
      .onConflict((oc) => oc.column('monitor_id').doUpdateSet({ last_day: day }))
      .execute();
  }
}
