import { sql, type Kysely } from 'kysely';
import { PrecompiledQueries, type Database, type Dialect } from '../../../platform/db/index.ts';
import { DAY_MS, HOUR_MS } from './rollups.compute.ts';
import type { RollupDayRow, RollupRow, RollupsTables, RollupTable } from './rollups.tables.ts';

/** A rollup row with its sketch as hexadecimal text (any case), '' or null when it has none. */
export type RollupRowHex = Omit<RollupRow, 'sketch'> & { sketch: string | null };

/** A rollup row as reports read it (readDaysAndHours): what they sum, the sketch as hexadecimal text. */
export type SnapshotRow = Pick<RollupRowHex, 'monitor_key' | 'hour_start' | 'checks' | 'failures' | 'sketch'>;

/**
 * Hourly rows of one monitor in one block of hours (readDaysAndHourBlocks), summed: checks, failures and the sketches
 * in hour order as one hexadecimal text, each preceded by its length in bytes (4 bytes, big-endian; null: none):
 * DecodedSketches.pushFramed reads them in one call. Several rows may carry the same (monitor, block): they add up.
 */
export interface BlockRow {
  monitor_key: number;
  /** Index of the block in the list asked for. */
  block: number;
  checks: number;
  failures: number;
  sketches: string | null;
}

export interface RollupKey {
  monitor_key: number;
  hour_start: number;
  region_key: number;
}

const CHUNK = 300;
const KEY_COLUMNS = ['monitor_key', 'hour_start', 'region_key'] as const;
const ROW_COLUMNS = [...KEY_COLUMNS, 'checks', 'failures', 'downtime_ms', 'sketch'] as const;
// Only what a report sums (rows of several regions are summed alike): each column is a field to parse on 540,000 rows.
const SUMMED_COLUMNS = ['monitor_key', 'hour_start', 'checks', 'failures'] as const;
// Sketches come as hex text on SQLite: better-sqlite3 makes a Buffer per blob, which was about half of the reading
// cost of a report (≈ 180,000 rows for 1,000 monitors × 90 days in Berlin, ≈ 540,000 in New York).
const HEX_SKETCH = sql<string | null>`hex(sketch)`;

/** Monitor keys per statement of `totalsByBucket` (SQLite allows 32,766 bound parameters, PostgreSQL 65,535). */
const TOTAL_KEYS_PER_STATEMENT = 5_000;

export class RollupsRepository {
  private readonly db: Kysely<RollupsTables>;
  private readonly dialect: Dialect;
  private readonly table: RollupTable;
  private readonly queries: PrecompiledQueries;
  /**
   * `table`: hourly rollups (default) or daily ones. `queries`: where the lock read and the write keep their compiled
   * statements (a writer's own, kept across its transactions); a fresh one compiles them on every use.
   */
  constructor(database: Database, table: RollupTable = 'execution_rollup', queries = new PrecompiledQueries()) {
    this.db = database.tables<RollupsTables>();
    this.dialect = database.dialect;
    this.table = table;
    this.queries = queries;
  }

  /**
   * Reads the rows of `keys` for an update in the caller's transaction. PostgreSQL: missing rows are created empty
   * (so concurrent writers of a new hour serialize on the unique key) and existing ones locked, in one upsert that
   * returns them.
   * SQLite: only read — the transaction already holds the single write lock, and `write` inserts what is
   * missing, so the empty rows would be one statement per batch (and one prepared text per list length) for nothing.
   */
  async lockForUpdate(keys: RollupKey[]): Promise<RollupDayRow[]> {
    const out: RollupDayRow[] = [];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const read = await this.queries.runRows<RollupDayRow, RollupKey>(
        this.db as Kysely<unknown>,
        `rollups.lock:${this.dialect}:${this.table}`,
        KEY_COLUMNS,
        keys.slice(i, i + CHUNK),
        (rows) => (this.dialect === 'postgres' ? this.createOrLock(rows) : this.readKeys(rows)),
      );
      out.push(...read);
    }
    return out;
  }

  /**
   * One statement instead of an insert of the empty rows and a locked read: the update that changes nothing locks an
   * existing row as `for update` would, and `returning` gives it as it was (a new row: empty).
   */
  private createOrLock(keys: ReadonlyArray<Record<keyof RollupKey, string>>) {
    const table = this.table;
    return this.db
      .insertInto(table)
      .values(keys.map((k) => ({ ...(k as never as RollupKey), checks: 0, failures: 0, downtime_ms: 0, sketch: null })))
      .onConflict((oc) => oc.columns([...KEY_COLUMNS]).doUpdateSet((eb) => ({ checks: eb.ref(`${table}.checks`) })))
      .returningAll();
  }

  private readKeys(keys: ReadonlyArray<Record<keyof RollupKey, string>>) {
    return this.db
      .selectFrom(this.table)
      .selectAll()
      .where((eb) =>
        eb(
          eb.refTuple('monitor_key', 'hour_start', 'region_key'),
          'in',
          keys.map((k) =>
            eb.tuple(
              k.monitor_key as never as number,
              k.hour_start as never as number,
              k.region_key as never as number,
            ),
          ),
        ),
      );
  }

  async write(rows: RollupRow[]): Promise<void> {
    const db = this.db as Kysely<unknown>;
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK).map((r) => ({ ...r, sketch: r.sketch ? Buffer.from(r.sketch) : null }));
      await this.queries.runRows(db, `rollups.write:${this.table}`, ROW_COLUMNS, part, (placeholders) =>
        this.db
          .insertInto(this.table)
          .values(placeholders as never as RollupRow[])
          .onConflict((oc) =>
            oc.columns([...KEY_COLUMNS]).doUpdateSet((eb) => ({
              checks: eb.ref('excluded.checks'),
              failures: eb.ref('excluded.failures'),
              downtime_ms: eb.ref('excluded.downtime_ms'),
              sketch: eb.ref('excluded.sketch'),
            })),
          ),
      );
    }
  }

  /** Rows of the monitors with hour_start in [from, to), optionally one region, oldest first. */
  /**
   * Checks and failures of all `monitorKeys` together per bucket start in [from, to), summed by the database (an
   * organization's 10,000 monitors are a few thousand rows a day, not sent to the app). Keys go in parts so that no
   * statement passes the dialects' bound-parameter limits.
   */
  async totalsByBucket(
    monitorKeys: readonly number[],
    from: number,
    to: number,
    regionKey?: number,
  ): Promise<Map<number, { checks: number; failures: number }>> {
    const totals = new Map<number, { checks: number; failures: number }>();
    for (let i = 0; i < monitorKeys.length; i += TOTAL_KEYS_PER_STATEMENT) {
      let q = this.db
        .selectFrom(this.table)
        .select((eb) => [
          'hour_start',
          eb.fn.sum<number | string>('checks').as('checks'),
          eb.fn.sum<number | string>('failures').as('failures'),
        ])
        .where('monitor_key', 'in', monitorKeys.slice(i, i + TOTAL_KEYS_PER_STATEMENT))
        .where('hour_start', '>=', from)
        .where('hour_start', '<', to);
      if (regionKey !== undefined) q = q.where('region_key', '=', regionKey);
      for (const row of await q.groupBy('hour_start').execute()) {
        const start = Number(row.hour_start);
        const total = totals.get(start) ?? { checks: 0, failures: 0 };
        total.checks += Number(row.checks);
        total.failures += Number(row.failures);
        totals.set(start, total);
      }
    }
    return totals;
  }

  async range(monitorKeys: readonly number[], from: number, to: number, regionKey?: number): Promise<RollupRow[]> {
    if (monitorKeys.length === 0) return [];
    let q = this.db
      .selectFrom(this.table)
      .selectAll()
      .where(
        'monitor_key',
        monitorKeys.length === 1 ? '=' : 'in',
        monitorKeys.length === 1 ? monitorKeys[0]! : [...monitorKeys],
      )
      .where('hour_start', '>=', from)
      .where('hour_start', '<', to);
    if (regionKey !== undefined) q = q.where('region_key', '=', regionKey);
    return q.orderBy('monitor_key').orderBy('hour_start').execute();
  }
}

/** SQLite: the daily rows of `keys` with their day in [days.from, days.to), the columns a report sums. */
function readDailyRowsSqlite(
  db: Kysely<RollupsTables>,
  keys: readonly number[],
  days: { from: number; to: number },
): Promise<SnapshotRow[]> {
  return db
    .selectFrom('execution_rollup_day')
    .select([...SUMMED_COLUMNS, HEX_SKETCH.as('sketch')])
    .where('monitor_key', 'in', keys)
    .where('hour_start', '>=', days.from)
    .where('hour_start', '<', days.to)
    .execute();
}

/**
 * Daily rows of some monitors with their day in [days.from, days.to) and their hourly rows at `hourStarts`, read in
 * one snapshot (REPEATABLE READ on PostgreSQL; on SQLite one transaction on the process's one connection), so that a
 * daily row is exactly the sum of the hours read with it even while checks are being recorded: a report takes hours
 * away from days. `framedHours`: an hour's sketch as readDaysAndHourBlocks gives sketches (its length, then itself).
 */
export async function readDaysAndHours(
  database: Database,
  monitorKeys: readonly number[],
  days: { from: number; to: number } | null,
  hourStarts: readonly number[],
  options: { framedHours?: boolean } = {},
): Promise<{ days: SnapshotRow[]; hours: SnapshotRow[] }> {
  if (monitorKeys.length === 0) return { days: [], hours: [] };
  if (database.dialect === 'postgres')
    return readSnapshotAsArrays(database, monitorKeys, days, hourStarts, options.framedHours === true);
  const hourHex = options.framedHours
    ? sql<string | null>`case when length(sketch) > 0 then printf('%08X', length(sketch)) || hex(sketch) end`
    : HEX_SKETCH;
  if (hourStarts.length === 0) {
    // One statement is one snapshot by itself: no transaction.
    const dayRows = days ? await readDailyRowsSqlite(database.tables<RollupsTables>(), [...monitorKeys], days) : [];
    return { days: dayRows, hours: [] };
  }
  return database
    .tables<RollupsTables>()
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      const keys = [...monitorKeys];
      const dayRows = days ? await readDailyRowsSqlite(trx, keys, days) : [];
      const hours: SnapshotRow[] = [];
      // A few hundred instants per statement; each is a seek on the primary key.
      for (let i = 0; i < hourStarts.length; i += CHUNK) {
        hours.push(
          ...(await trx
            .selectFrom('execution_rollup')
            .select([...SUMMED_COLUMNS, hourHex.as('sketch')])
            .where('monitor_key', 'in', keys)
            .where('hour_start', 'in', hourStarts.slice(i, i + CHUNK))
            .execute()),
        );
      }
      return { days: dayRows, hours };
    });
}

/**
 * readDaysAndHours on PostgreSQL: the same statements, each row one text field (its five columns joined by commas, the
 * sketch as hex; node-postgres decodes a string per field, 630,000 rows × 5 fields in New York), read as arrays of text
 * in one REPEATABLE READ snapshot and turned into rows here. node-postgres building an object per row field by field,
 * running its type parsers and decoding each field cost about as much as folding the ≈ 630,000 rows of a New York
 * report; one field and one object literal per row (one shape) cost less. concat_ws skips NULL: a row without a
 * sketch has four parts.
 */
async function readSnapshotAsArrays(
  database: Database,
  monitorKeys: readonly number[],
  days: { from: number; to: number } | null,
  hourStarts: readonly number[],
  framedHours: boolean,
): Promise<{ days: SnapshotRow[]; hours: SnapshotRow[] }> {
  const db = database.tables<RollupsTables>();
  const keys = [...monitorKeys];
  const columns = [
    sql<string>`concat_ws(',', monitor_key, hour_start, checks, failures, encode(sketch, 'hex'))`.as('row'),
  ] as const;
  const hourColumns = framedHours
    ? ([
        sql<string>`concat_ws(',', monitor_key, hour_start, checks, failures,
          lpad(to_hex(length(sketch)), 8, '0') || encode(sketch, 'hex'))`.as('row'),
      ] as const)
    : columns;
  const statements = [];
  if (days)
    statements.push(
      db
        .selectFrom('execution_rollup_day')
        .select([...columns])
        .where('monitor_key', 'in', keys)
        .where('hour_start', '>=', days.from)
        .where('hour_start', '<', days.to)
        .compile(),
    );
  // A few hundred instants per statement; each is a seek on the primary key.
  for (let i = 0; i < hourStarts.length; i += CHUNK)
    statements.push(
      db
        .selectFrom('execution_rollup')
        .select([...hourColumns])
        .where('monitor_key', 'in', keys)
        .where('hour_start', 'in', hourStarts.slice(i, i + CHUNK))
        .compile(),
    );
  const results = await database.readTextArrays(statements);
  const toRows = (list: Array<Array<string | null>>, into: SnapshotRow[]): SnapshotRow[] => {
    for (const [text] of list) into.push(parseRowText(text!));
    return into;
  };
  const dayRows = days ? toRows(results[0]!, []) : [];
  const hours: SnapshotRow[] = [];
  for (const list of results.slice(days ? 1 : 0)) toRows(list, hours);
  return { days: dayRows, hours };
}

/**
 * One row read as text by readSnapshotAsArrays or readDaysAndHourBlocks: four numbers (integer/bigint NOT NULL
 * columns or their sums; epoch milliseconds fit a number exactly) and what follows the fourth comma, if anything.
 */
function parseRowText(t: string): SnapshotRow {
  const a = t.indexOf(',');
  const b = t.indexOf(',', a + 1);
  const c = t.indexOf(',', b + 1);
  const d = t.indexOf(',', c + 1);
  return {
    monitor_key: Number(t.slice(0, a)),
    hour_start: Number(t.slice(a + 1, b)),
    checks: Number(t.slice(b + 1, c)),
    failures: Number(d < 0 ? t.slice(c + 1) : t.slice(c + 1, d)),
    sketch: d < 0 ? null : t.slice(d + 1),
  };
}

/** The hours of blocks as two parallel lists (hour start, index of its block): the block statements' parameters. */
function flattenBlocks(blocks: ReadonlyArray<readonly number[]>): { starts: number[]; blockOf: number[] } {
  const starts: number[] = [];
  const blockOf: number[] = [];
  blocks.forEach((hours, block) => {
    for (const h of hours) {
      starts.push(h);
      blockOf.push(block);
    }
  });
  return { starts, blockOf };
}

/**
 * Daily rows and hours given in blocks (a report's edge hours: those that add to and take from the same local days).
 * With `prefixes` (closed days' prefix sums, asked for by what they count toward), readDaysWithPrefixes: the blocks
 * are then the prefixes' own hours, read only for days without prefixes. Without, every hour of the blocks is read
 * as a row of its own (one BlockRow per hourly row, its sketch framed; what the prefix read is tested against), in
 * the snapshot of readDaysAndHours.
 */
export async function readDaysAndHourBlocks(
  database: Database,
  monitorKeys: readonly number[],
  days: { from: number; to: number } | null,
  blocks: ReadonlyArray<readonly number[]>,
  options: { prefixes?: PrefixRequests } = {},
): Promise<{ days: SnapshotRow[]; blocks: BlockRow[]; prefixes: SnapshotRow[] }> {
  if (options.prefixes) return readDaysWithPrefixes(database, monitorKeys, days, blocks, options.prefixes);
  const { starts, blockOf } = flattenBlocks(blocks);
  const read = await readDaysAndHours(database, monitorKeys, days, starts, { framedHours: true });
  const blockAt = new Map(starts.map((h, i) => [h, blockOf[i]!]));
  return {
    prefixes: [],
    days: read.days,
    blocks: read.hours.map((r) => ({
      monitor_key: r.monitor_key,
      block: blockAt.get(Number(r.hour_start))!,
      checks: r.checks,
      failures: r.failures,
      sketches: r.sketch,
    })),
  };
}

function blockRowOf(text: string): BlockRow {
  const row = parseRowText(text);
  return {
    monitor_key: row.monitor_key,
    block: row.hour_start,
    checks: row.checks,
    failures: row.failures,
    sketches: row.sketch,
  };
}

/** Prefix sums asked of daily rows: request i is prefix `ks[i]` (hours [0, k)) of the UTC day starting at `days[i]`. */
export interface PrefixRequests {
  days: readonly number[];
  ks: readonly number[];
}

/**
 * In one snapshot: the daily rows of `days`, the prefix sums asked for (a row per (monitor, region,
 * request) whose day has them: "monitor,request,checks,failures,sketch"), and, for the days that have none yet (not
 * closed, or not compacted yet), their hours of `blocks`, on PostgreSQL summed per (monitor, block) into one row
 * (checks and failures summed, the sketches in hour order, each preceded by its length: one hex text that
 * DecodedSketches.pushFramed decodes in one call), on SQLite a row each. The hours are found from those daily rows (a range of the hourly key per row without prefixes), so a report over closed days
 * reads no hourly row at all.
 */
async function readDaysWithPrefixes(
  database: Database,
  monitorKeys: readonly number[],
  days: { from: number; to: number } | null,
  blocks: ReadonlyArray<readonly number[]>,
  prefixes: PrefixRequests,
): Promise<{ days: SnapshotRow[]; blocks: BlockRow[]; prefixes: SnapshotRow[] }> {
  if (monitorKeys.length === 0) return { days: [], blocks: [], prefixes: [] };
  if (database.dialect === 'sqlite') return readDaysWithPrefixesSqlite(database, monitorKeys, days, blocks, prefixes);
  const db = database.tables<RollupsTables>();
  const keys = sql.join([...monitorKeys]);
  const statements = [sql`set local jit = off`.compile(db)];
  if (days)
    statements.push(
      db
        .selectFrom('execution_rollup_day')
        .select(sql<string>`concat_ws(',', monitor_key, hour_start, checks, failures, encode(sketch, 'hex'))`.as('row'))
        .where('monitor_key', 'in', [...monitorKeys])
        .where('hour_start', '>=', days.from)
        .where('hour_start', '<', days.to)
        .compile(),
    );
  const asked = prefixes.days.length > 0;
  if (asked) {
    const index = prefixes.days.map((_, i) => i);
    statements.push(
      sql<{ row: string }>`select concat_ws(',', d.monitor_key, p.i, d.prefix_checks[p.k], d.prefix_failures[p.k],
          encode(d.prefix_sketches[p.k], 'hex')) as row
        from execution_rollup_day d
        join unnest(${[...prefixes.days]}::bigint[], ${[...prefixes.ks]}::int[], ${index}::int[]) as p(day, k, i)
          on p.day = d.hour_start
        where d.monitor_key in (${keys}) and d.hour_start = any(${[...prefixes.days]}::bigint[])
          and d.prefix_checks is not null`.compile(db),
    );
  }
  const { starts, blockOf } = flattenBlocks(blocks);
  const fallback = starts.length > 0;
  if (fallback) {
    const from = Math.floor(Math.min(...starts) / DAY_MS) * DAY_MS;
    const to = Math.floor(Math.max(...starts) / DAY_MS) * DAY_MS + DAY_MS;
    statements.push(
      sql<{ row: string }>`select concat_ws(',', r.monitor_key, b.block, sum(r.checks), sum(r.failures),
          encode(string_agg(int4send(length(r.sketch)) || r.sketch, ''::bytea order by r.hour_start), 'hex')) as row
        from execution_rollup_day d
        join execution_rollup r on r.monitor_key = d.monitor_key and r.region_key = d.region_key
          and r.hour_start >= d.hour_start and r.hour_start < d.hour_start + ${DAY_MS}::bigint
        join unnest(${starts}::bigint[], ${blockOf}::int[]) as b(hour_start, block) on b.hour_start = r.hour_start
        where d.monitor_key in (${keys}) and d.hour_start >= ${from}::bigint and d.hour_start < ${to}::bigint
          and d.prefix_checks is null
        group by r.monitor_key, b.block`.compile(db),
    );
  }
  // Results in the order of the statements, after `set local jit`.
  const results = (await database.readTextArrays(statements)).slice(1);
  const dayRows = days ? results.shift()!.map(([text]) => parseRowText(text!)) : [];
  const prefixRows = asked ? results.shift()!.map(([text]) => parseRowText(text!)) : [];
  const blockRows = fallback ? results.shift()!.map(([text]) => blockRowOf(text!)) : [];
  return { days: dayRows, blocks: blockRows, prefixes: prefixRows };
}

/**
 * readDaysWithPrefixes on SQLite, in one transaction of the process's connection: the prefix rows are found by key
 * (day start + k hours: a seek each in the WITHOUT ROWID table) and the hours of days without prefixes from those
 * daily rows (`prefixed = 0`), one row per hour as SQLite's block read gives them.
 */
async function readDaysWithPrefixesSqlite(
  database: Database,
  monitorKeys: readonly number[],
  days: { from: number; to: number } | null,
  blocks: ReadonlyArray<readonly number[]>,
  prefixes: PrefixRequests,
): Promise<{ days: SnapshotRow[]; blocks: BlockRow[]; prefixes: SnapshotRow[] }> {
  const keys = [...monitorKeys];
  const requestAt = new Map(prefixes.days.map((day, i) => [day + prefixes.ks[i]! * HOUR_MS, i]));
  const instants = [...requestAt.keys()];
  const { starts, blockOf } = flattenBlocks(blocks);
  const blockAt = new Map(starts.map((h, i) => [h, blockOf[i]!]));
  return database
    .tables<RollupsTables>()
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      const dayRows = days ? await readDailyRowsSqlite(trx, keys, days) : [];
      const prefixRows: SnapshotRow[] = [];
      for (let i = 0; i < instants.length; i += CHUNK) {
        const rows = await trx
          .selectFrom('execution_rollup_prefix')
          .select([...SUMMED_COLUMNS, HEX_SKETCH.as('sketch')])
          .where('monitor_key', 'in', keys)
          .where('hour_start', 'in', instants.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) prefixRows.push({ ...r, hour_start: requestAt.get(Number(r.hour_start))! });
      }
      const blockRows: BlockRow[] = [];
      if (starts.length > 0) {
        const from = Math.floor(Math.min(...starts) / DAY_MS) * DAY_MS;
        const to = Math.floor(Math.max(...starts) / DAY_MS) * DAY_MS + DAY_MS;
        const { rows } = await sql<SnapshotRow>`select r.monitor_key, r.hour_start, r.checks, r.failures,
            case when length(r.sketch) > 0 then printf('%08X', length(r.sketch)) || hex(r.sketch) end as sketch
          from execution_rollup_day d
          join execution_rollup r on r.monitor_key = d.monitor_key and r.region_key = d.region_key
            and r.hour_start >= d.hour_start and r.hour_start < d.hour_start + ${DAY_MS}
          where d.monitor_key in (${sql.join(keys)}) and d.hour_start >= ${from} and d.hour_start < ${to}
            and d.prefixed = 0`.execute(trx);
        for (const r of rows) {
          const block = blockAt.get(Number(r.hour_start));
          if (block === undefined) continue;
          blockRows.push({
            monitor_key: r.monitor_key,
            block,
            checks: r.checks,
            failures: r.failures,
            sketches: r.sketch,
          });
        }
      }
      return { days: dayRows, blocks: blockRows, prefixes: prefixRows };
    });
}
