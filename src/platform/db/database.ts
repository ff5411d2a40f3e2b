import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';

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
   * Runs `callback` once the surrounding transaction has committed (never if it rolls back); outside a
   * transaction, right away. For signals such as "new outbox event", which must not fire for work that vanished.
   */
  afterCommit(callback: () => void): void;
  /**
   * Rows of one read-only statement, SQL already compiled for this dialect (e.g. once, from a Kysely query,
   * then reused with new parameters). For the hottest reads: on SQLite, when no transaction is open, the
   * cached prepared statement runs directly, without Kysely's executor, connection mutex and promise
   * chain; otherwise (PostgreSQL, or a transaction open, whose end it would not wait for) through Kysely.
   */
  selectRows<R>(compiledSql: string, parameters: readonly unknown[]): Promise<R[]>;
  /**
   * The same read, done synchronously when it can be (SQLite, no transaction open on the connection);
   * `undefined` otherwise. Lets a per-connection cache read a row and keep it with no other work in between.
   */
  selectRowsNow<R>(compiledSql: string, parameters: readonly unknown[]): R[] | undefined;
  /** True when selectRowsNow and dataVersionNow would run (SQLite, no transaction open on the connection). */
  readsNow(): boolean;
  /**
   * SQLite's `PRAGMA data_version`: it changes when another connection (another process) has committed,
   * never for this connection's own writes. `undefined` when selectRowsNow would be.
   */
  dataVersionNow(): number | undefined;
  /**
   * One value per key for this connection, shared with its transaction handles and made on first use: for
   * caches that the connection's own writes (through any handle) must reach.
   */
  connectionLocal<T>(key: symbol, make: () => T): T;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… URL, or a SQLite file path (":memory:" allowed). */
  url: string | null;
  sqlitePath: string;
  poolSize?: number;
}

/** Runs a read on the SQLite connection itself, synchronously. */
type DirectRead = (compiledSql: string, parameters: readonly unknown[]) => unknown[];

interface DirectAccess {
  read: DirectRead;
  dataVersion: () => number;
}

/** What a database and its transaction handles share: one connection (SQLite) or pool (PostgreSQL). */
interface ConnectionShared {
  /** Transactions begun and not yet ended. */
  transactions: number;
  locals: Map<symbol, unknown>;
}

class KyselyDatabase implements Database {
  readonly dialect: Dialect;
  readonly inTransaction: boolean;
  private readonly kysely: Kysely<unknown>;
  private closed = false;
  private readonly committed: Array<() => void> = [];
  private readonly direct: DirectAccess | null;
  private readonly open: ConnectionShared;
  constructor(
    dialect: Dialect,
    kysely: Kysely<unknown>,
    options: { inTransaction?: boolean; direct?: DirectAccess | null; open?: ConnectionShared } = {},
  ) {
    this.dialect = dialect;
    this.kysely = kysely;
    this.inTransaction = options.inTransaction ?? false;
    this.direct = options.direct ?? null;
    this.open = options.open ?? { transactions: 0, locals: new Map() };
  }
  async transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    let handle: KyselyDatabase | undefined;
    this.open.transactions += 1;
    let result: T;
    try {
      result = await this.kysely.transaction().execute((trx) => {
        handle = new KyselyDatabase(this.dialect, trx, { inTransaction: true, open: this.open, direct: this.direct });
        return work(handle);
      });
    } finally {
      this.open.transactions -= 1;
    }
    for (const callback of handle?.committed ?? []) callback();
    return result;
  }
  async selectRows<R>(compiledSql: string, parameters: readonly unknown[]): Promise<R[]> {
    // Another request's transaction may be open across an await: a direct read would see its uncommitted
    // rows, where Kysely's connection mutex makes the read wait for its end.
    if (this.direct && this.open.transactions === 0) return this.direct.read(compiledSql, parameters) as R[];
    const result = await this.kysely.executeQuery<R>(CompiledQuery.raw(compiledSql, [...parameters]));
    return [...result.rows];
  }
  selectRowsNow<R>(compiledSql: string, parameters: readonly unknown[]): R[] | undefined {
    return this.direct && this.open.transactions === 0 ? (this.direct.read(compiledSql, parameters) as R[]) : undefined;
  }
  readsNow(): boolean {
    return this.direct !== null && this.open.transactions === 0;
  }
  dataVersionNow(): number | undefined {
    return this.direct && this.open.transactions === 0 ? this.direct.dataVersion() : undefined;
  }
  connectionLocal<T>(key: symbol, make: () => T): T {
    if (!this.open.locals.has(key)) this.open.locals.set(key, make());
    return this.open.locals.get(key) as T;
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
    await this.kysely.destroy();
  }
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
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
  return new KyselyDatabase('postgres', new Kysely({ dialect: new PostgresDialect({ pool }) }));
}

/**
 * Kysely prepares every query afresh; preparing costs more than running a small query, so statements are
 * kept by their SQL text (the same query shapes recur). A statement still being iterated (a stream) is
 * busy; then a fresh one is prepared. SQLite re-prepares cached statements itself after a schema change.
 */
function cachePreparedStatements(sqlite: BetterSqlite3.Database, max = 500): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, BetterSqlite3.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    if (cache.size >= max) cache.clear();
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

function openSqlite(path: string): Database {
  if (path !== ':memory:') prepareSqliteFiles(path);
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cachePreparedStatements(sqlite);
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const direct: DirectAccess = {
    read: (compiledSql, parameters) => sqlite.prepare(compiledSql).all(...parameters),
    dataVersion: () => dataVersion.get() as number,
  };
  return new KyselyDatabase('sqlite', new Kysely({ dialect: new SqliteDialect({ database: sqlite }) }), { direct });
}

export function openDatabase(options: DatabaseOptions): Database {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openSqlite(options.sqlitePath);
}
