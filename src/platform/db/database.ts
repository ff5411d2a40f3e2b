import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { LanedLock, type Lane } from './connection.lanes.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The storage handle. Modules declare their own table interfaces and get a typed Kysely through
 * `tables<T>()`; only repositories call it.
 */
export interface Database {
  readonly dialect: Dialect;
  tables<T>(): Kysely<T>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Runs `work` in one transaction. The handle it receives is a Database bound to the transaction:
   * build repositories from it so several modules' writes commit or roll back together.
   * Inside a transaction, a nested call reuses the outer one.
   */
  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T>;
  readonly inTransaction: boolean;
  /**
   * The same storage, whose statements and transactions go before ordinary ones waiting for a connection: the check
   * engine's claims and result batches, so checks are never starved by API traffic (docs/architecture.md, "Checks
   * before the API"). SQLite: the urgent queue of the one connection's lock; PostgreSQL: a small pool of its own.
   * Inside a transaction, the transaction itself.
   */
  urgent(): Database;
  /** Statements and transactions waiting for a connection of this handle's lane now (diagnostics, tests). */
  waitingForConnection(): number;
  /**
   * Runs `callback` once the surrounding transaction has committed (never if it rolls back); outside a
   * transaction, right away. For signals such as "new outbox event", which must not fire for work that vanished.
   */
  afterCommit(callback: () => void): void;
  /**
   * PostgreSQL only, outside a transaction: runs compiled read-only statements in one REPEATABLE READ snapshot and
   * returns each statement's rows as arrays of the server's text values (null for NULL), no type parsing. For reads of
   * hundreds of thousands of rows, where node-postgres building an object per row (a field name per value) and running
   * its type parsers cost as much as the work done with the rows.
   */
  readTextArrays(statements: readonly CompiledStatement[]): Promise<Array<Array<Array<string | null>>>>;
  close(): Promise<void>;
}

/** A statement's SQL text with its parameters, as Kysely's `compile()` gives them. */
export interface CompiledStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

export interface DatabaseOptions {
  /** postgres://… URL, or a SQLite file path (":memory:" allowed). */
  url: string | null;
  sqlitePath: string;
  poolSize?: number;
}

class KyselyDatabase implements Database {
  readonly dialect: Dialect;
  readonly inTransaction: boolean;
  private readonly kysely: Kysely<unknown>;
  private closed = false;
  private readonly committed: Array<() => void> = [];
  private readonly pool: pg.Pool | undefined;
  /** The urgent lane's handle; absent on a transaction and on the urgent handle itself. */
  private readonly urgentLane: KyselyDatabase | undefined;
  /** SQLite: the one connection's lock, and the lane this handle waits in. */
  private readonly lock: LanedLock | undefined;
  private readonly lane: Lane;
  constructor(
    dialect: Dialect,
    kysely: Kysely<unknown>,
    options: { inTransaction?: boolean; pool?: pg.Pool; urgent?: KyselyDatabase; lock?: LanedLock; lane?: Lane } = {},
  ) {
    this.lock = options.lock;
    this.lane = options.lane ?? 'normal';
    this.dialect = dialect;
    this.kysely = kysely;
    this.inTransaction = options.inTransaction ?? false;
    this.pool = options.pool;
    this.urgentLane = options.urgent;
  }
  urgent(): Database {
    return this.urgentLane ?? this;
  }
  waitingForConnection(): number {
    if (this.pool) return this.pool.waitingCount;
    return this.lock ? this.lock.waiting[this.lane] : 0;
  }
  async readTextArrays(statements: readonly CompiledStatement[]): Promise<Array<Array<Array<string | null>>>> {
    // Inside a transaction the pool would hand out another connection, outside the caller's transaction.
    if (!this.pool || this.inTransaction) throw new Error('readTextArrays: PostgreSQL only, outside a transaction');
    const client = await this.pool.connect();
    // One statement is one snapshot by itself: no transaction, two round trips fewer.
    const snapshot = statements.length > 1;
    let broken: Error | undefined;
    try {
      if (snapshot) await client.query('begin isolation level repeatable read read only');
      const results: Array<Array<Array<string | null>>> = [];
      for (const statement of statements) {
        const result = await client.query<Array<string | null>>({
          text: statement.sql,
          values: [...statement.parameters],
          rowMode: 'array',
          types: RAW_TEXT_TYPES,
        });
        results.push(result.rows);
      }
      if (snapshot) await client.query('commit');
      return results;
    } catch (err) {
      if (snapshot)
        broken = await client.query('rollback').then(
          () => undefined,
          (rollbackError: Error) => rollbackError,
        );
      throw err;
    } finally {
      // A connection whose rollback failed is in an unknown state: the pool drops it instead of reusing it.
      client.release(broken);
    }
  }
  async transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    let handle: KyselyDatabase | undefined;
    const result = await this.kysely.transaction().execute((trx) => {
      handle = new KyselyDatabase(this.dialect, trx, { inTransaction: true });
      return work(handle);
    });
    for (const callback of handle?.committed ?? []) callback();
    return result;
  }
  afterCommit(callback: () => void): void {
    if (this.inTransaction) this.committed.push(callback);
    else callback();
  }
  tables<T>(): Kysely<T> {
    return this.kysely as unknown as Kysely<T>;
  }
  async ping(): Promise<boolean> {
    try {
      await sql`select 1`.execute(this.kysely);
      return true;
    } catch {
      return false;
    }
  }
  async close(): Promise<void> {
    if (this.closed || this.inTransaction) return;
    this.closed = true;
    await this.urgentLane?.close();
    await this.kysely.destroy();
  }
}

/** Every column as the server's text: the caller converts the few it reads. */
const RAW_TEXT_TYPES = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

/** Idle 10 s, then a probe every 5 s, 3 unanswered: a dead peer's session ends within about 25 s. */
const SERVER_KEEPALIVES = 'set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/**
 * The urgent lane's own pool on PostgreSQL: pg's pool queue is first come, first served, so behind a full pool of API
 * queries a claim would wait its turn. The engine holds at most a claim and a result batch at once, so two suffice.
 */
const URGENT_POOL_SIZE = 2;

function openPostgres(url: string, poolSize: number): Database {
  const urgentPool = openPool(url, URGENT_POOL_SIZE);
  const urgent = new KyselyDatabase('postgres', new Kysely({ dialect: new PostgresDialect({ pool: urgentPool }) }), {
    pool: urgentPool,
  });
  const pool = openPool(url, poolSize);
  return new KyselyDatabase('postgres', new Kysely({ dialect: new PostgresDialect({ pool }) }), { pool, urgent });
}

function openPool(url: string, poolSize: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    keepAlive: true,
    // Times are stored as epoch milliseconds in bigint columns; they fit a JS number exactly.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  // A replica lost with its host (power, kernel, network) leaves its server sessions open, a transaction holding row
  // locks among them: claims skip locked rows, so its monitors would go unchecked until TCP gives up (2 h by
  // default). Server-side keepalives end such a session within about 25 s. Queued before the client's first query.
  pool.on('connect', (client) => {
    client.query(SERVER_KEEPALIVES).catch(() => {
      // The first query on this client reports a broken connection.
    });
  });
  return pool;
}

/**
 * Kysely prepares every query afresh; preparing costs more than running a small query, so statements are
 * kept by their SQL text (the same query shapes recur). A statement still being iterated (a stream) is
 * busy; then a fresh one is prepared. SQLite re-prepares cached statements itself after a schema change.
 * Least recently used first out: a batch's `IN (…)` and multi-row `VALUES` lists make one text per length, so the
 * engine makes more texts than the cache holds, and emptying the whole cache when it was full (as before) also threw
 * away the hot ones: 1,119 prepares in a 100 s run at 50 checks/s, ≈ 5 % of the process's CPU in `prepare`.
 */
function cachePreparedStatements(sqlite: BetterSqlite3.Database, max = 500): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, BetterSqlite3.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      // Map order is insertion order: re-inserting makes it the most recently used.
      cache.delete(source);
      cache.set(source, cached);
      return cached;
    }
    const statement = prepare(source);
    cache.delete(source);
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(source, statement);
    return statement;
  }) as typeof sqlite.prepare;
}

/**
 * The data directory is created 0700 and the database file 0600 before SQLite opens it: SQLite gives its -wal
 * and -shm files the database file's mode, so no file holding data is readable by other users. Files of an
 * existing installation (made 0644 under a common umask) are tightened to 0600 too.
 */
function prepareSqliteFiles(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    } catch (err) {
      // Absent (-wal/-shm before the first write), or another user's file: SQLite reports what matters.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && (err as NodeJS.ErrnoException).code !== 'EPERM')
        throw err;
    }
  }
}

/**
 * SQLite transactions begin IMMEDIATE: the write lock is taken (or waited for, up to busy_timeout) at BEGIN. A deferred
 * transaction that read first and then writes cannot wait for another process's writer: SQLite answers "database is
 * locked" at once (`tocsin demo`, backups or CLI commands beside a running `tocsin serve`). Within one process the
 * single connection runs one transaction at a time anyway, so this changes nothing there. A read-only transaction
 * (`setAccessMode('read only')`: the snapshot reads of reports, on a report thread's own connection) stays deferred:
 * it must not take the write lock from the check engine for the length of a report.
 */
class LanedSqliteDriver extends SqliteDriver {
  private readonly lock: LanedLock;
  private readonly lane: Lane;
  constructor(config: SqliteDialectConfig, lock: LanedLock, lane: Lane) {
    super(config);
    this.lock = lock;
    this.lane = lane;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire(this.lane);
    return super.acquireConnection();
  }
  override async releaseConnection(): Promise<void> {
    this.lock.release();
  }
  override async destroy(): Promise<void> {
    // The normal lane's driver owns the connection; the urgent one's shares it.
    if (this.lane === 'normal') await super.destroy();
  }
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

/** The driver serialises the connection itself (LanedLock): Kysely's own one-queue mutex is turned off. */
class SelfLockingSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
  /**
   * SQLite's schema changes are transactional: the migrator then runs the whole upgrade in one `begin immediate`
   * transaction, so of several processes starting on one file the later ones wait for the first's commit (busy
   * timeout) and find nothing left to apply, instead of failing with "table … already exists"; a failed upgrade
   * leaves the schema as it was.
   */
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/**
 * One Kysely per lane over the one better-sqlite3 connection, sharing its lock. Besides `begin immediate` (above),
 * the driver waits in its lane's queue for the connection, held from acquire to release (a statement, or a whole
 * transaction).
 */
class LanedSqliteDialect extends SqliteDialect {
  private readonly driverConfig: SqliteDialectConfig;
  private readonly lock: LanedLock;
  private readonly lane: Lane;
  constructor(config: SqliteDialectConfig, lock: LanedLock, lane: Lane) {
    super(config);
    this.driverConfig = config;
    this.lock = lock;
    this.lane = lane;
  }
  override createDriver(): Driver {
    return new LanedSqliteDriver(this.driverConfig, this.lock, this.lane);
  }
  override createAdapter(): DialectAdapter {
    return new SelfLockingSqliteAdapter();
  }
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') prepareSqliteFiles(path);
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cachePreparedStatements(sqlite);
  const lock = new LanedLock();
  const lane = (name: Lane) => new Kysely({ dialect: new LanedSqliteDialect({ database: sqlite }, lock, name) });
  const urgent = new KyselyDatabase('sqlite', lane('urgent'), { lock, lane: 'urgent' });
  return new KyselyDatabase('sqlite', lane('normal'), { urgent, lock });
}

export function openDatabase(options: DatabaseOptions): Database {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openSqlite(options.sqlitePath);
}
