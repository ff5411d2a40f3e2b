import { PrecompiledQueries, type Database } from '../../../platform/db/index.ts';
import type { HeartbeatRunState } from '../probes/index.ts';
import type { HeartbeatPingRow, HeartbeatSignalRow, HeartbeatTables } from './heartbeats.tables.ts';

/** What the heartbeat probe judges: the last end of a run, the last fail and the oldest run still open. */
export interface HeartbeatState {
  lastPingAt: number;
  run: HeartbeatRunState;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** What a batch's ends of runs (while none was open) did to one monitor's state row. */
export interface EndsOfMonitor {
  monitorId: string;
  pings: number;
  lastPingAt: number;
  lastFail: { at: number; exitCode: number | null } | null;
}

const SIGNAL_COLUMNS: ReadonlyArray<keyof HeartbeatSignalRow> = [
  'id',
  'monitor_id',
  'organization_id',
  'kind',
  'at',
  'rid',
  'open',
  'duration_ms',
  'exit_code',
  'body',
  'body_bytes',
  'truncated',
  'source_ip',
  'user_agent',
];

type EndRow = Pick<HeartbeatPingRow, 'monitor_id' | 'last_ping_at' | 'pings' | 'last_fail_at' | 'last_exit_code'>;
const END_COLUMNS: ReadonlyArray<keyof EndRow> = [
  'monitor_id',
  'last_ping_at',
  'pings',
  'last_fail_at',
  'last_exit_code',
];

/**
 * `heartbeat_ping` (one state row per monitor) and `heartbeat_signal` (every ping kept). The statements of a ping
 * batch (its signals, its monitors' states) are built and compiled once per row count in `queries` (the service's):
 * Kysely otherwise builds and compiles them afresh for every batch (docs/BENCHMARKS.md, Heartbeats).
 */
export class HeartbeatsRepository {
  private readonly database: Database;
  private readonly queries: PrecompiledQueries;
  constructor(database: Database, queries = new PrecompiledQueries()) {
    this.database = database;
    this.queries = queries;
  }

  private get db() {
    return this.database.tables<HeartbeatTables>();
  }

  async insertSignal(row: HeartbeatSignalRow): Promise<void> {
    await this.db.insertInto('heartbeat_signal').values(row).execute();
  }

  /**
   * Many signals, a statement per 500 rows (14 parameters a row: under either database's limit). On SQLite they are
   * stored unfiled (`filed` 0: not in the monitor index yet, see `fileSignals`); elsewhere filed at once.
   */
  async insertSignals(rows: readonly HeartbeatSignalRow[]): Promise<void> {
    const filed = this.defersFiling ? 0 : 1;
    for (let i = 0; i < rows.length; i += 500) {
      await this.queries.runRows<unknown, HeartbeatSignalRow>(
        this.database.tables<unknown>(),
        `heartbeat_signal.insert:${filed}`,
        SIGNAL_COLUMNS,
        rows.length <= 500 ? rows : rows.slice(i, i + 500),
        (placeholders) =>
          this.db
            .insertInto('heartbeat_signal')
            .values(placeholders.map((p) => ({ ...(p as never as HeartbeatSignalRow), filed }))),
      );
    }
  }

  /**
   * Whether `insertSignals` leaves its rows out of `heartbeat_signal_monitor_idx` until `fileSignals`: on SQLite each
   * monitor of a batch took a leaf page of that index, written to the WAL at every commit, most of a ping's storage
   * cost; filed a thousand at a time a leaf takes many entries per write. (PostgreSQL logs index entries, not pages,
   * and its UPDATE would write each row twice.)
   */
  get defersFiling(): boolean {
    return this.database.dialect === 'sqlite';
  }

  /** Enters the unfiled signals in the monitor index (one statement; the rows are read through their own index). */
  async fileSignals(): Promise<void> {
    await this.db.updateTable('heartbeat_signal').set({ filed: 1 }).where('filed', '=', 0).execute();
  }

  /**
   * The state rows after ends of runs while no run was open (the common ping), one row per monitor in one statement:
   * `pings` more pings, the last at `lastPingAt`, the last fail (when one of them failed), no run open.
   */
  async recordEnds(ends: readonly EndsOfMonitor[]): Promise<void> {
    if (ends.length === 0) return;
    const rows: EndRow[] = ends.map((e) => ({
      monitor_id: e.monitorId,
      last_ping_at: e.lastPingAt,
      pings: e.pings,
      last_fail_at: e.lastFail?.at ?? null,
      last_exit_code: e.lastFail?.exitCode ?? null,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await this.queries.runRows<unknown, EndRow>(
        this.database.tables<unknown>(),
        'heartbeat_ping.recordEnds',
        END_COLUMNS,
        rows.length <= 500 ? rows : rows.slice(i, i + 500),
        (placeholders) =>
          this.db
            .insertInto('heartbeat_ping')
            .values(placeholders.map((p) => ({ ...(p as never as EndRow), open_since: null })))
            .onConflict((oc) =>
              oc.column('monitor_id').doUpdateSet((eb) => ({
                last_ping_at: eb.ref('excluded.last_ping_at'),
                pings: eb('heartbeat_ping.pings', '+', eb.ref('excluded.pings')),
                open_since: null,
                // Unchanged unless one of these ends failed.
                last_fail_at: eb.fn.coalesce('excluded.last_fail_at', 'heartbeat_ping.last_fail_at'),
                last_exit_code: eb
                  .case()
                  .when('excluded.last_fail_at', 'is', null)
                  .then(eb.ref('heartbeat_ping.last_exit_code'))
                  .else(eb.ref('excluded.last_exit_code'))
                  .end(),
              })),
            ),
      );
    }
  }

  /** The start of the oldest open run of each monitor that has a state row (null: none open). */
  async openSinceOf(monitorIds: readonly string[]): Promise<Map<string, number | null>> {
    const out = new Map<string, number | null>();
    for (let i = 0; i < monitorIds.length; i += 500) {
      const rows = await this.queries.runRows<Pick<HeartbeatPingRow, 'monitor_id' | 'open_since'>, { id: string }>(
        this.database.tables<unknown>(),
        'heartbeat_ping.openSinceOf',
        ['id'],
        monitorIds.slice(i, i + 500).map((id) => ({ id })),
        (ids) =>
          this.db
            .selectFrom('heartbeat_ping')
            .select(['monitor_id', 'open_since'])
            .where(
              'monitor_id',
              'in',
              ids.map((r) => r.id),
            ),
      );
      for (const r of rows) out.set(r.monitor_id, num(r.open_since));
    }
    return out;
  }

  /** The open start an end pairs with: the same run id, or the latest open start when the end has none. */
  async openStart(monitorId: string, rid: string | null): Promise<{ id: string; at: number } | null> {
    let q = this.db
      .selectFrom('heartbeat_signal')
      .select(['id', 'at'])
      .where('monitor_id', '=', monitorId)
      .where('open', '=', 1);
    if (rid !== null) q = q.where('rid', '=', rid);
    const row = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? { id: row.id, at: Number(row.at) } : null;
  }

  /** Closes open starts: of one run id, of the starts without one (`rid` null), or all of them (`'all'`). */
  async closeStarts(monitorId: string, rid: string | null | 'all'): Promise<void> {
    let q = this.db.updateTable('heartbeat_signal').set({ open: 0 }).where('monitor_id', '=', monitorId);
    q = q.where('open', '=', 1);
    if (rid === null) q = q.where('rid', 'is', null);
    else if (rid !== 'all') q = q.where('rid', '=', rid);
    await q.execute();
  }

  private async oldestOpen(monitorId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('heartbeat_signal')
      .select((eb) => eb.fn.min('at').as('at'))
      .where('monitor_id', '=', monitorId)
      .where('open', '=', 1)
      .executeTakeFirst();
    return num(row?.at ?? null);
  }

  /**
   * Updates the state row after a signal: an end (`end`) moves the last ping (and the last fail for a fail);
   * `runsChanged` (a start, or an end while runs were open) reads the oldest open run again, else none is open.
   * A monitor whose first signal is a start gets a row whose last ping is its creation (same first deadline).
   */
  async updateState(
    monitorId: string,
    createdAt: number,
    end: { at: number; failed: boolean; exitCode: number | null } | null,
    runsChanged: boolean,
  ): Promise<void> {
    const openSince = runsChanged ? await this.oldestOpen(monitorId) : null;
    const fail = end?.failed ? { last_fail_at: end.at, last_exit_code: end.exitCode } : {};
    await this.db
      .insertInto('heartbeat_ping')
      .values({
        monitor_id: monitorId,
        last_ping_at: end?.at ?? createdAt,
        pings: end ? 1 : 0,
        last_fail_at: null,
        last_exit_code: null,
        open_since: openSince,
        ...fail,
      })
      .onConflict((oc) =>
        oc
          .column('monitor_id')
          .doUpdateSet((eb) =>
            end
              ? { last_ping_at: end.at, pings: eb('heartbeat_ping.pings', '+', 1), open_since: openSince, ...fail }
              : { open_since: openSince },
          ),
      )
      .execute();
  }

  /** The start of the oldest open run the state row holds (null: none open, or no row). */
  async openSince(monitorId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('heartbeat_ping')
      .select('open_since')
      .where('monitor_id', '=', monitorId)
      .executeTakeFirst();
    return num(row?.open_since ?? null);
  }

  async states(monitorIds: readonly string[]): Promise<Map<string, HeartbeatState>> {
    if (monitorIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('heartbeat_ping')
      .selectAll()
      .where('monitor_id', 'in', [...monitorIds])
      .execute();
    return new Map(
      rows.map((r) => [
        r.monitor_id,
        {
          lastPingAt: Number(r.last_ping_at),
          run: { lastFailAt: num(r.last_fail_at), lastExitCode: num(r.last_exit_code), openSince: num(r.open_since) },
        },
      ]),
    );
  }

  async lastPings(monitorIds: readonly string[]): Promise<Map<string, number>> {
    const states = await this.states(monitorIds);
    return new Map([...states].map(([id, s]) => [id, s.lastPingAt]));
  }

  /**
   * A monitor's signals, newest first, after the cursor's id: the filed ones through the monitor index, the unfiled
   * ones (at most a few thousand of all monitors) through theirs, merged.
   */
  async listSignals(monitorId: string, limit: number, beforeId: string | undefined): Promise<HeartbeatSignalRow[]> {
    const page = async (filed: 0 | 1) => {
      // `filed` first for the unfiled rows: the condition of their partial index is what picks it.
      let q =
        filed === 1
          ? this.db.selectFrom('heartbeat_signal').where('monitor_id', '=', monitorId).where('filed', '=', 1)
          : this.db.selectFrom('heartbeat_signal').where('filed', '=', 0).where('monitor_id', '=', monitorId);
      if (beforeId !== undefined) q = q.where('id', '<', beforeId);
      return q.select(SIGNAL_COLUMNS).orderBy('id', 'desc').limit(limit).execute();
    };
    const rows = [...(await page(1)), ...(await page(0))];
    rows.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return rows.slice(0, limit).map((r) => ({
      ...r,
      at: Number(r.at),
      duration_ms: num(r.duration_ms),
      exit_code: num(r.exit_code),
      body_bytes: Number(r.body_bytes),
    }));
  }

  async deleteOf(monitorId: string): Promise<void> {
    // Two statements, each through its partial index (one without `filed` would read the whole table).
    await this.db.deleteFrom('heartbeat_signal').where('monitor_id', '=', monitorId).where('filed', '=', 1).execute();
    await this.db.deleteFrom('heartbeat_signal').where('filed', '=', 0).where('monitor_id', '=', monitorId).execute();
    await this.db.deleteFrom('heartbeat_slug').where('monitor_id', '=', monitorId).execute();
  }
}
