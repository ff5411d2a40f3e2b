import type { Kysely } from 'kysely';
import { PrecompiledQueries, type Database, type Dialect } from '../../../platform/db/index.ts';
import type { ExecutionRow, ExecutionSeriesRow, ExecutionsTables } from './executions.tables.ts';

const INSERT_CHUNK = 500;
const EXECUTION_COLUMNS = [
  'id',
  'monitor_key',
  'region_key',
  'started_at',
  'down',
  'duration_ms',
  'dns_ms',
  'connect_ms',
  'tls_ms',
  'ttfb_ms',
  'download_ms',
  'total_ms',
  'http_status',
  'shape_key',
  'detail',
] as const satisfies ReadonlyArray<keyof ExecutionRow>;
// Every column of the row is in the list: a column added to ExecutionRow and not here fails to compile.
const everyExecutionColumn: Exclude<keyof ExecutionRow, (typeof EXECUTION_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everyExecutionColumn;

/** A row to insert: the store's key comes from the insert. */
export type NewExecutionRow = Omit<ExecutionRow, 'id'>;
const NEW_EXECUTION_COLUMNS = EXECUTION_COLUMNS.filter(
  (c): c is Exclude<(typeof EXECUTION_COLUMNS)[number], 'id'> => c !== 'id',
);

export interface InsertedKey {
  id: number;
  monitor_key: number;
  started_at: number;
}

/**
 * The keys of `rows` from what their insert returned. PostgreSQL returns the rows of a multi-row VALUES in its order
 * (and draws the keys in it); checked rather than assumed, since its documentation does not promise it: otherwise
 * each row takes the key of a returned row with its monitor and start.
 */
export function keysInRowOrder(
  rows: ReadonlyArray<Pick<NewExecutionRow, 'monitor_key' | 'started_at'>>,
  inserted: readonly InsertedKey[],
): number[] {
  if (
    inserted.length === rows.length &&
    inserted.every((r, i) => r.monitor_key === rows[i]!.monitor_key && Number(r.started_at) === rows[i]!.started_at)
  ) {
    return inserted.map((r) => Number(r.id));
  }
  const byRow = new Map<string, number[]>();
  for (const r of inserted) {
    const k = `${r.monitor_key}:${Number(r.started_at)}`;
    const keys = byRow.get(k);
    if (keys) keys.push(Number(r.id));
    else byRow.set(k, [Number(r.id)]);
  }
  return rows.map((r) => {
    const key = byRow.get(`${r.monitor_key}:${r.started_at}`)?.shift();
    if (key === undefined) throw new Error('insert returned no key for an execution row');
    return key;
  });
}

const SERIES_COLUMNS = [
  'monitor_key',
  'region_key',
  'last_started_at',
  'last_down',
  'last_gap_ms',
] as const satisfies ReadonlyArray<keyof ExecutionSeriesRow>;
const everySeriesColumn: Exclude<keyof ExecutionSeriesRow, (typeof SERIES_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everySeriesColumn;

export interface ExecutionListFilter {
  from?: number;
  to?: number;
  regionKey?: number;
  down?: boolean;
}

export interface ExecutionSample {
  started_at: number;
  region_key: number;
  down: number;
  duration_ms: number;
}

/** Executions of one monitor in a span with the same outcome and duration, counted (ExecutionsRepository.tally). */
export interface ExecutionTallyRow {
  monitor_key: number;
  down: number;
  duration_ms: number;
  n: number;
}

/** All SQL of execution storage. Build one from the transaction handle to write inside it. */
export class ExecutionsRepository {
  private readonly db: Kysely<ExecutionsTables>;
  private readonly dialect: Dialect;
  private readonly queries: PrecompiledQueries;
  /** `queries`: where the execution insert keeps its compiled statements (the store's own, kept across batches). */
  constructor(database: Database, queries = new PrecompiledQueries()) {
    this.db = database.tables<ExecutionsTables>();
    this.dialect = database.dialect;
    this.queries = queries;
  }

  // ---- surrogate keys -------------------------------------------------------------------------------

  async findMonitorKeys(monitorIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (monitorIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('monitor_key')
      .select(['id', 'monitor_id'])
      .where('monitor_id', 'in', [...monitorIds])
      .execute();
    for (const r of rows) out.set(r.monitor_id, r.id);
    return out;
  }

  async insertMonitorKeys(rows: Array<{ monitor_id: string; organization_id: string }>): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('monitor_key')
      .values(rows)
      .onConflict((oc) => oc.column('monitor_id').doNothing())
      .execute();
  }

  /** The newest execution's key (0 when none): where a live feed starts. */
  async latestKey(): Promise<number> {
    const row = await this.db
      .selectFrom('execution')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  /** Executions stored after `afterKey`, in key order, with their monitor and organization (the live feed). */
  recordedAfter(afterKey: number, limit: number) {
    return this.db
      .selectFrom('execution')
      .innerJoin('monitor_key', 'monitor_key.id', 'execution.monitor_key')
      .select([
        'execution.id',
        'execution.started_at',
        'execution.down',
        'execution.duration_ms',
        'monitor_key.monitor_id',
        'monitor_key.organization_id',
      ])
      .where('execution.id', '>', afterKey)
      .orderBy('execution.id')
      .limit(limit)
      .execute();
  }

  async monitorOfKey(key: number): Promise<{ monitor_id: string; organization_id: string } | undefined> {
    return this.db
      .selectFrom('monitor_key')
      .select(['monitor_id', 'organization_id'])
      .where('id', '=', key)
      .executeTakeFirst();
  }

  async allRegionKeys(): Promise<Map<string, number>> {
    const rows = await this.db.selectFrom('region_key').select(['id', 'code']).execute();
    return new Map(rows.map((r) => [r.code, r.id]));
  }

  async insertRegionKeys(codes: readonly string[]): Promise<void> {
    if (codes.length === 0) return;
    await this.db
      .insertInto('region_key')
      .values(codes.map((code) => ({ code })))
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }

  async findShapes(bodies: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (bodies.length === 0) return out;
    const rows = await this.db
      .selectFrom('execution_shape')
      .select(['id', 'body'])
      .where('body', 'in', [...bodies])
      .execute();
    for (const r of rows) out.set(r.body, r.id);
    return out;
  }

  async insertShapes(bodies: readonly string[]): Promise<void> {
    if (bodies.length === 0) return;
    await this.db
      .insertInto('execution_shape')
      .values(bodies.map((body) => ({ body })))
      .onConflict((oc) => oc.column('body').doNothing())
      .execute();
  }

  async shapeBodies(keys: readonly number[]): Promise<Map<number, string>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('execution_shape')
      .select(['id', 'body'])
      .where('id', 'in', [...keys])
      .execute();
    return new Map(rows.map((r) => [r.id, r.body]));
  }

  // ---- executions ----------------------------------------------------------------------------------

  /**
   * Inserts the rows and returns their new keys, increasing, in the rows' order. PostgreSQL: from the column's
   * sequence (safe across processes) in the insert itself, one round trip. SQLite: max(id)+1… under the write lock
   * the caller's transaction already holds (the writer is single).
   */
  async insertExecutions(rows: readonly NewExecutionRow[]): Promise<number[]> {
    const keys: number[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const part = rows.slice(i, i + INSERT_CHUNK);
      keys.push(
        ...(this.dialect === 'postgres' ? await this.insertReturningKeys(part) : await this.insertAfterMax(part)),
      );
    }
    return keys;
  }

  private async insertReturningKeys(rows: readonly NewExecutionRow[]): Promise<number[]> {
    const inserted = await this.queries.runRows<InsertedKey, NewExecutionRow>(
      this.db as Kysely<unknown>,
      'executions.insert:postgres',
      NEW_EXECUTION_COLUMNS,
      rows,
      (placeholders) =>
        this.db
          .insertInto('execution')
          .values(placeholders as never as ExecutionRow[])
          .returning(['id', 'monitor_key', 'started_at']),
    );
    return keysInRowOrder(rows, inserted);
  }

  private async insertAfterMax(rows: readonly NewExecutionRow[]): Promise<number[]> {
    const row = await this.db
      .selectFrom('execution')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst();
    const base = Number(row?.m ?? 0);
    const withKeys: ExecutionRow[] = rows.map((r, i) => ({ id: base + 1 + i, ...r }));
    await this.queries.runRows(
      this.db as Kysely<unknown>,
      'executions.insert:sqlite',
      EXECUTION_COLUMNS,
      withKeys,
      (placeholders) => this.db.insertInto('execution').values(placeholders as never as ExecutionRow[]),
    );
    return withKeys.map((r) => r.id);
  }

  async findById(id: number): Promise<ExecutionRow | undefined> {
    return this.db.selectFrom('execution').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Newest first, keyset-paged on (started_at, id). */
  async list(
    monitorKey: number,
    filter: ExecutionListFilter,
    after: { startedAt: number; id: number } | undefined,
    limit: number,
  ): Promise<ExecutionRow[]> {
    let q = this.db.selectFrom('execution').selectAll().where('monitor_key', '=', monitorKey);
    if (filter.from !== undefined) q = q.where('started_at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('started_at', '<', filter.to);
    if (filter.regionKey !== undefined) q = q.where('region_key', '=', filter.regionKey);
    if (filter.down !== undefined) q = q.where('down', '=', filter.down ? 1 : 0);
    if (after) {
      const { startedAt, id } = after;
      q = q.where((eb) =>
        eb.or([eb('started_at', '<', startedAt), eb.and([eb('started_at', '=', startedAt), eb('id', '<', id)])]),
      );
    }
    return q.orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** What minute-resolution history needs, oldest first. */
  async samples(
    monitorKey: number,
    regionKey: number | undefined,
    from: number,
    to: number,
  ): Promise<ExecutionSample[]> {
    let q = this.db
      .selectFrom('execution')
      .select(['started_at', 'region_key', 'down', 'duration_ms'])
      .where('monitor_key', '=', monitorKey)
      .where('started_at', '>=', from)
      .where('started_at', '<', to);
    if (regionKey !== undefined) q = q.where('region_key', '=', regionKey);
    return q.orderBy('started_at').execute();
  }

  /**
   * The executions of monitors that started in [from, to), grouped by monitor, outcome and duration (what their
   * rollups counted: checks, failures and the successful ones' latencies), read by the (monitor_key, started_at)
   * index. Reports count the part of an hour a window edge cuts with it.
   */
  async tally(monitorKeys: readonly number[], from: number, to: number): Promise<ExecutionTallyRow[]> {
    if (monitorKeys.length === 0 || to <= from) return [];
    const rows = await this.db
      .selectFrom('execution')
      .select((eb) => ['monitor_key', 'down', 'duration_ms', eb.fn.countAll<number>().as('n')])
      .where('monitor_key', 'in', [...monitorKeys])
      .where('started_at', '>=', from)
      .where('started_at', '<', to)
      .groupBy(['monitor_key', 'down', 'duration_ms'])
      .execute();
    return rows.map((r) => ({
      monitor_key: Number(r.monitor_key),
      down: Number(r.down),
      duration_ms: Number(r.duration_ms),
      n: Number(r.n),
    }));
  }

  // ---- downtime state --------------------------------------------------------------------------------

  async seriesOf(monitorKeys: readonly number[]): Promise<ExecutionSeriesRow[]> {
    if (monitorKeys.length === 0) return [];
    return this.queries.runRows<ExecutionSeriesRow, { monitor_key: number }>(
      this.db as Kysely<unknown>,
      'executions.seriesOf',
      ['monitor_key'],
      monitorKeys.map((monitor_key) => ({ monitor_key })),
      (rows) =>
        this.db
          .selectFrom('execution_series')
          .selectAll()
          .where(
            'monitor_key',
            'in',
            rows.map((r) => r.monitor_key as never as number),
          ),
    );
  }

  async saveSeries(rows: ExecutionSeriesRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.queries.runRows(
      this.db as Kysely<unknown>,
      'executions.saveSeries',
      SERIES_COLUMNS,
      rows,
      (placeholders) =>
        this.db
          .insertInto('execution_series')
          .values(placeholders as never as ExecutionSeriesRow[])
          .onConflict((oc) =>
            oc.columns(['monitor_key', 'region_key']).doUpdateSet((eb) => ({
              last_started_at: eb.ref('excluded.last_started_at'),
              last_down: eb.ref('excluded.last_down'),
              last_gap_ms: eb.ref('excluded.last_gap_ms'),
            })),
          ),
    );
  }

  // ---- retention -------------------------------------------------------------------------------------

  /**
   * Deletes one chunk of expired executions: the `chunk` oldest keys (keys are allocated in arrival order,
   * so this is a range scan of the primary key, no time index needed) among which those started before
   * `cutoff`. Returns the number deleted, or -1 when the oldest row is not expired (nothing more to do).
   */
  async purgeChunk(cutoff: number, chunk: number): Promise<number> {
    const head = await this.db
      .selectFrom('execution')
      .select(['id', 'started_at'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!head || head.started_at >= cutoff) return -1;
    const result = await this.db
      .deleteFrom('execution')
      .where('id', '<', Number(head.id) + chunk)
      .where('started_at', '<', cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
