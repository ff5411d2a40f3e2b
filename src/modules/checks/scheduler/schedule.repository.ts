import { sql, type Kysely } from 'kysely';
import { PrecompiledQueries, type Database } from '../../../platform/db/index.ts';
import type { CheckScheduleRow, EngineTables } from '../engine/engine.tables.ts';
import { anchoredPhase } from './schedule.jitter.ts';

export interface ScheduleEntry {
  monitorId: string;
  regionCode: string;
  organizationId: string;
  intervalMs: number;
  /**
   * Used only when the row is new or its interval changed: the first check, and the anchor of the row's slots
   * (`firstDueAt + k × interval`), so the second check is exactly one interval after the first.
   */
  firstDueAt: number;
  monitorVersion: number;
  /** The monitor's check timeout (ms): its claims are leased for at least this and LEASE_MARGIN_MS. */
  timeoutMs: number;
}

/**
 * Added to a row's check timeout for its lease: the result still has to be batched and stored (a runner sends every
 * 250 ms; a remote runner's batch crosses the network) before the lease ends, or the slot could be taken over.
 */
export const LEASE_MARGIN_MS = 2_000;

export interface ClaimedSlot {
  monitorId: string;
  regionCode: string;
  organizationId: string;
  /** The slot this claim runs: the latest slot at or before the claim (missed slots are not replayed). */
  dueAt: number;
  /** The row's due time before this claim: its oldest unclaimed slot (earlier than `dueAt` when slots were missed). */
  wasDueAt: number;
  monitorVersion: number;
}

/** Due checks of a region that no process has claimed yet. */
export interface RegionBacklog {
  regionCode: string;
  /** Rows due at or before `now` and not leased. */
  count: number;
  /** The oldest such row's due time; null when there is none. */
  oldestDueAt: number | null;
}

export interface ScheduleKey {
  monitorId: string;
  regionCode: string;
}

interface ClaimRow {
  monitor_id: string;
  region_code: string;
  organization_id: string;
  due_at: number | string;
  was_due_at: number | string;
  monitor_version: number | string;
}

/**
 * `check_schedule`: one row per (monitor, region). A row's slots are `phase_ms + k × interval_ms`, anchored on its
 * first due time, so consecutive slots are exactly one interval apart from the first check on. A claim atomically
 * takes due, unleased rows, sets the lease and moves `next_due_at` to the slot after the one it runs, so a slot is
 * claimed at most once whatever the number of processes, and missed slots are never replayed.
 */
export class ScheduleRepository {
  private readonly database: Database;
  private readonly queries: PrecompiledQueries;
  /**
   * `queries`: where the per-batch release keeps its compiled statements (the engine's own, kept across its
   * transactions); a fresh one compiles them on every use.
   */
  constructor(database: Database, queries = new PrecompiledQueries()) {
    this.database = database;
    this.queries = queries;
  }

  private get db() {
    return this.database.tables<EngineTables>();
  }

  async upsert(entries: readonly ScheduleEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows: CheckScheduleRow[] = entries.map((e) => ({
      monitor_id: e.monitorId,
      region_code: e.regionCode,
      organization_id: e.organizationId,
      interval_ms: e.intervalMs,
      phase_ms: anchoredPhase(e.firstDueAt, e.intervalMs),
      next_due_at: e.firstDueAt,
      lease_owner: null,
      lease_until: null,
      monitor_version: e.monitorVersion,
      timeout_ms: e.timeoutMs,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('check_schedule')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.columns(['monitor_id', 'region_code']).doUpdateSet((eb) => ({
            organization_id: eb.ref('excluded.organization_id'),
            monitor_version: eb.ref('excluded.monitor_version'),
            interval_ms: eb.ref('excluded.interval_ms'),
            timeout_ms: eb.ref('excluded.timeout_ms'),
            // The slots (phase and next due time) move only when the interval changes: re-anchored on the new first due.
            phase_ms: sql<number>`case when check_schedule.interval_ms <> excluded.interval_ms then excluded.phase_ms else check_schedule.phase_ms end`,
            next_due_at: sql<number>`case when check_schedule.interval_ms <> excluded.interval_ms then excluded.next_due_at else check_schedule.next_due_at end`,
          })),
        )
        .execute();
    }
  }

  /** Removes a monitor's rows, all of them or those of regions not in `keepRegions`. */
  async removeMonitor(monitorId: string, keepRegions: readonly string[] = []): Promise<void> {
    let q = this.db.deleteFrom('check_schedule').where('monitor_id', '=', monitorId);
    if (keepRegions.length > 0) q = q.where('region_code', 'not in', [...keepRegions]);
    await q.execute();
  }

  /** Every (monitor, region) key after `after`, ordered, for reconciliation. */
  async keysAfter(after: ScheduleKey | null, limit: number): Promise<Array<ScheduleKey & { monitorVersion: number }>> {
    let q = this.db.selectFrom('check_schedule').select(['monitor_id', 'region_code', 'monitor_version']);
    if (after) {
      q = q.where((eb) =>
        eb.or([
          eb('monitor_id', '>', after.monitorId),
          eb.and([eb('monitor_id', '=', after.monitorId), eb('region_code', '>', after.regionCode)]),
        ]),
      );
    }
    const rows = await q.orderBy('monitor_id').orderBy('region_code').limit(limit).execute();
    return rows.map((r) => ({
      monitorId: r.monitor_id,
      regionCode: r.region_code,
      monitorVersion: Number(r.monitor_version),
    }));
  }

  async removeKeys(keys: readonly ScheduleKey[]): Promise<void> {
    for (const k of keys) {
      await this.db
        .deleteFrom('check_schedule')
        .where('monitor_id', '=', k.monitorId)
        .where('region_code', '=', k.regionCode)
        .execute();
    }
  }

  /**
   * Claims up to `limit` checks of `regions` due by `now + lookaheadMs` for `owner` until `now + lookaheadMs + leaseMs`
   * (a runner claims a little ahead and starts each check on its due time).
   *
   * Fair across organizations: the due rows are ranked within their organization (after its checks in flight), and
   * the claim takes rank 1 of every organization (oldest first), then rank 2, …; so when more is due than the runner
   * has free slots, an organization with a thousand overdue monitors holding the slots does not starve one with
   * three: theirs rank first. A row whose lease is held (its previous check still in flight) is not claimed again; its missed
   * slots are skipped, never queued (the claim moves it to the slot after `now`), and `wasDueAt` tells how late.
   *
   * PostgreSQL: `FOR UPDATE SKIP LOCKED` on the candidate rows lets concurrent claimers pass each other (the window
   * function is in a joined sub-select: a locking clause cannot be on the query level that has it); SQLite: the
   * single UPDATE statement runs under the database's one writer lock.
   */
  async claim(
    owner: string,
    regions: readonly string[],
    now: number,
    leaseMs: number,
    limit: number,
    lookaheadMs = 0,
  ): Promise<ClaimedSlot[]> {
    if (regions.length === 0 || limit <= 0) return [];
    const rows =
      this.database.dialect === 'postgres'
        ? await this.claimPostgres(owner, regions, now, leaseMs, limit, lookaheadMs)
        : await this.claimSqlite(owner, regions, now, leaseMs, limit, lookaheadMs);
    return rows.map((r) => ({
      monitorId: r.monitor_id,
      regionCode: r.region_code,
      organizationId: r.organization_id,
      dueAt: Number(r.due_at),
      wasDueAt: Number(r.was_due_at),
      monitorVersion: Number(r.monitor_version),
    }));
  }

  /**
   * The due, unleased rows ranked within their organization, counting its checks in flight first: an organization
   * with 4 checks running ranks its oldest due row 5th, one with none ranks it 1st, so free slots go to the
   * organizations holding fewest (ordering by due time alone would hand every freed slot to the biggest backlog).
   * In flight = a lease not ended (released rows have none). The two parts are disjoint and each reads one index
   * range: `(region_code, lease_until)` and `(region_code, next_due_at)`.
   */
  private rankedDue(regions: readonly string[], now: number, horizon: number) {
    const regionList = sql.join(regions.map((r) => sql`${r}`));
    return sql`select monitor_id, region_code, rk from (
                 select monitor_id, region_code, in_flight,
                        row_number() over (partition by organization_id
                                           order by in_flight desc, next_due_at, monitor_id) as rk
                   from (select monitor_id, region_code, organization_id, next_due_at, 1 as in_flight
                           from check_schedule
                          where region_code in (${regionList}) and lease_until >= ${now}
                         union all
                         select monitor_id, region_code, organization_id, next_due_at, 0 as in_flight
                           from check_schedule
                          where region_code in (${regionList})
                            and next_due_at <= ${horizon}
                            and (lease_until is null or lease_until < ${now})) candidates) ranked
                where in_flight = 0`;
  }

  /**
   * The slot after max(now, due), as the new `next_due_at`: a row claimed ahead of its due time moves to its own
   * next slot, a late one to the first slot after now (its missed slots are skipped).
   */
  private nextSlot(now: number, column: ReturnType<typeof sql.ref>) {
    const base = this.database.dialect === 'postgres' ? sql`greatest(${now}, ${column})` : sql`max(${now}, ${column})`;
    return sql`${base} - ((${base} - phase_ms) % interval_ms) + interval_ms`;
  }

  /**
   * A claimed row's lease end: `leaseMs` after the horizon, or the row's check timeout and LEASE_MARGIN_MS when that
   * is longer (a check is never taken over, nor its result refused, while it may still be running).
   */
  private leaseEnd(horizon: number, leaseMs: number, column: ReturnType<typeof sql.ref>) {
    const longer = this.database.dialect === 'postgres' ? sql`greatest` : sql`max`;
    return sql`${horizon} + ${longer}(${leaseMs}, ${column} + ${LEASE_MARGIN_MS})`;
  }

  /** One statement; the sub-select's `next_due_at` is the row's value before the update (`was_due_at`). */
  private async claimPostgres(
    owner: string,
    regions: readonly string[],
    now: number,
    leaseMs: number,
    limit: number,
    lookaheadMs: number,
  ): Promise<ClaimRow[]> {
    const horizon = now + lookaheadMs;
    const result = await sql<ClaimRow>`
      update check_schedule as s
         set lease_owner = ${owner},
             lease_until = ${this.leaseEnd(horizon, leaseMs, sql.ref('s.timeout_ms'))},
             next_due_at = ${this.nextSlot(now, sql.ref('s.next_due_at'))}
        from (
             select l.monitor_id, l.region_code, l.next_due_at
               from check_schedule l
               join (${this.rankedDue(regions, now, horizon)}) r
                 on r.monitor_id = l.monitor_id and r.region_code = l.region_code
              where l.next_due_at <= ${horizon}
                and (l.lease_until is null or l.lease_until < ${now})
              order by r.rk, l.next_due_at, l.monitor_id
              limit ${limit}
              for update of l skip locked) c
       where s.monitor_id = c.monitor_id and s.region_code = c.region_code
       returning s.monitor_id, s.region_code, s.organization_id, s.monitor_version,
                 s.next_due_at - s.interval_ms as due_at, c.next_due_at as was_due_at`.execute(this.db);
    return result.rows;
  }

  /**
   * SQLite's RETURNING sees only the updated values, so the candidates (and their due times) are read first; the
   * UPDATE then takes each only if it is unchanged (same due time, still unleased): a row another handle claimed in
   * between is left out, never claimed twice.
   */
  private async claimSqlite(
    owner: string,
    regions: readonly string[],
    now: number,
    leaseMs: number,
    limit: number,
    lookaheadMs: number,
  ): Promise<ClaimRow[]> {
    const horizon = now + lookaheadMs;
    type Picked = { monitor_id: string; region_code: string; next_due_at: number };
    const regionList = sql.join(regions.map((r) => sql`${r}`));
    // Usually everything due fits the free slots: then there is nothing to share and no ranking to pay for.
    let picked = await sql<Picked>`
      select monitor_id, region_code, next_due_at from check_schedule
       where region_code in (${regionList})
         and next_due_at <= ${horizon}
         and (lease_until is null or lease_until < ${now})
       limit ${limit + 1}`.execute(this.db);
    if (picked.rows.length > limit) {
      picked = await sql<Picked>`
        select s.monitor_id, s.region_code, s.next_due_at
          from check_schedule s
          join (${this.rankedDue(regions, now, horizon)}) r
            on r.monitor_id = s.monitor_id and r.region_code = s.region_code
         order by r.rk, s.next_due_at, s.monitor_id
         limit ${limit}`.execute(this.db);
    }
    if (picked.rows.length === 0) return [];
    const wasDue = new Map(picked.rows.map((p) => [`${p.monitor_id}\u0000${p.region_code}`, Number(p.next_due_at)]));
    const keys = sql.join(picked.rows.map((p) => sql`(${p.monitor_id}, ${p.region_code}, ${p.next_due_at})`));
    const result = await sql<Omit<ClaimRow, 'was_due_at'>>`
      update check_schedule
         set lease_owner = ${owner},
             lease_until = ${this.leaseEnd(horizon, leaseMs, sql.ref('timeout_ms'))},
             next_due_at = ${this.nextSlot(now, sql.ref('next_due_at'))}
       where (monitor_id, region_code, next_due_at) in (values ${keys})
         and (lease_until is null or lease_until < ${now})
       returning monitor_id, region_code, organization_id, monitor_version, next_due_at - interval_ms as due_at`.execute(
      this.db,
    );
    return result.rows.map((r) => ({ ...r, was_due_at: wasDue.get(`${r.monitor_id}\u0000${r.region_code}`)! }));
  }

  /**
   * Per region (of every row, whatever the regions this process serves): how many checks are due at `now` and not
   * claimed, and the oldest due time among them. One index range per region (`region_code, next_due_at`).
   */
  async backlog(now: number): Promise<RegionBacklog[]> {
    const rows = await this.db
      .selectFrom('check_schedule')
      .select((eb) => ['region_code', eb.fn.countAll<number | string>().as('n'), eb.fn.min('next_due_at').as('oldest')])
      .where('next_due_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .groupBy('region_code')
      .orderBy('region_code')
      .execute();
    return rows.map((r) => ({
      regionCode: r.region_code,
      count: Number(r.n),
      oldestDueAt: r.oldest === null || r.oldest === undefined ? null : Number(r.oldest),
    }));
  }

  /**
   * Leases every row of these monitors to `owner` until `until`, whoever held them: no runner claims them meanwhile
   * (`tocsin demo` writing their history beside a running server).
   */
  async hold(owner: string, monitorIds: readonly string[], until: number): Promise<void> {
    for (let i = 0; i < monitorIds.length; i += 500) {
      await this.db
        .updateTable('check_schedule')
        .set({ lease_owner: owner, lease_until: until })
        .where('monitor_id', 'in', monitorIds.slice(i, i + 500))
        .execute();
    }
  }

  /** Ends every lease `owner` holds (what `hold` took). */
  async releaseAll(owner: string): Promise<void> {
    await this.db
      .updateTable('check_schedule')
      .set({ lease_owner: null, lease_until: null })
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Ends `owner`'s leases on these checks (results recorded); a lease another owner took over is left alone. */
  async release(owner: string, keys: readonly ScheduleKey[]): Promise<void> {
    if (keys.length === 0) return;
    type Released = { monitor_id: string; region_code: string; lease_owner: string };
    const rows: Released[] = keys.map((k) => ({
      monitor_id: k.monitorId,
      region_code: k.regionCode,
      lease_owner: owner,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      // One statement per row count, whatever the regions: the owner is bound from the first row's placeholder.
      await this.queries.runRows<unknown, Released>(
        this.db as Kysely<unknown>,
        'schedule.release',
        ['monitor_id', 'region_code', 'lease_owner'],
        rows.slice(i, i + 500),
        (placeholders) =>
          this.db
            .updateTable('check_schedule')
            .set({ lease_owner: null, lease_until: null })
            .where((eb) =>
              eb(
                eb.refTuple('monitor_id', 'region_code'),
                'in',
                placeholders.map((p) => eb.tuple(p.monitor_id, p.region_code)),
              ),
            )
            .where('lease_owner', '=', placeholders[0]!.lease_owner),
      );
    }
  }

  /** The keys among `keys` whose lease `owner` holds and that has not ended at `now` (as `monitorId\u0000regionCode`). */
  async liveLeases(owner: string, keys: readonly ScheduleKey[], now: number): Promise<Set<string>> {
    const held = new Set<string>();
    const ids = [...new Set(keys.map((k) => k.monitorId))];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('check_schedule')
        .select(['monitor_id', 'region_code'])
        .where('monitor_id', 'in', ids.slice(i, i + 500))
        .where('lease_owner', '=', owner)
        .where('lease_until', '>=', now)
        .execute();
      for (const r of rows) held.add(`${r.monitor_id}\u0000${r.region_code}`);
    }
    return held;
  }

  /** The earliest due time of `regions`' rows (leased or not), or null when they have none. */
  async nextDueAt(regions: readonly string[]): Promise<number | null> {
    if (regions.length === 0) return null;
    const row = await this.db
      .selectFrom('check_schedule')
      .select((eb) => eb.fn.min('next_due_at').as('next'))
      .where('region_code', 'in', [...regions])
      .executeTakeFirst();
    return row?.next === null || row?.next === undefined ? null : Number(row.next);
  }

  /** Makes a monitor's checks due now (a heartbeat ping re-evaluates a down heartbeat monitor at once). */
  async makeDueNow(monitorId: string, now: number): Promise<void> {
    await this.db
      .updateTable('check_schedule')
      .set({ next_due_at: now })
      .where('monitor_id', '=', monitorId)
      .where('next_due_at', '>', now)
      .execute();
  }

  async get(monitorId: string, regionCode: string): Promise<CheckScheduleRow | null> {
    const row = await this.db
      .selectFrom('check_schedule')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('region_code', '=', regionCode)
      .executeTakeFirst();
    return row ?? null;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('check_schedule')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
