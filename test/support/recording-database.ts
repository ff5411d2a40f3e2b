import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { CompiledStatement, Database, Dialect } from '../../src/platform/db/index.ts';

/** What a repository sent: the SQL text (whitespace runs folded to one space) and its parameters. */
export interface RecordedStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** The rows the fake server answers a statement with (none unless told). */
export type Answer = (statement: RecordedStatement) => ReadonlyArray<Record<string, unknown>>;

export interface RecordingDatabase {
  database: Database;
  /** Every statement sent so far, in order. */
  statements: RecordedStatement[];
}

const fold = (text: string) => text.replace(/\s+/g, ' ').trim();

class RecordingConnection implements DatabaseConnection {
  private readonly record: (statement: RecordedStatement) => ReadonlyArray<Record<string, unknown>>;
  constructor(record: (statement: RecordedStatement) => ReadonlyArray<Record<string, unknown>>) {
    this.record = record;
  }
  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = this.record({ sql: fold(compiled.sql), parameters: compiled.parameters });
    return Promise.resolve({ rows: rows as R[] });
  }
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('recording database: streaming is not recorded');
  }
}

class RecordingDriver implements Driver {
  private readonly connection: RecordingConnection;
  constructor(connection: RecordingConnection) {
    this.connection = connection;
  }
  async init(): Promise<void> {}
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.connection);
  }
  async beginTransaction(): Promise<void> {}
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/**
 * A Database that talks to no server: Kysely compiles every statement with the dialect's own compiler (the same text
 * the real database receives) and the statement is recorded, answered by `answer`. Pins the SQL a repository sends
 * per dialect, so a change to the PostgreSQL text is seen in a run that has only SQLite.
 */
export function recordingDatabase(dialect: Dialect, answer: Answer = () => []): RecordingDatabase {
  const statements: RecordedStatement[] = [];
  const connection = new RecordingConnection((statement) => {
    statements.push(statement);
    return answer(statement);
  });
  const kyselyDialect: KyselyDialect = {
    createAdapter: () => (dialect === 'postgres' ? new PostgresAdapter() : new SqliteAdapter()),
    createDriver: () => new RecordingDriver(connection),
    createIntrospector: (db) => (dialect === 'postgres' ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
    createQueryCompiler: () => (dialect === 'postgres' ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
  };
  const kysely = new Kysely<unknown>({ dialect: kyselyDialect });
  const handle = (inTransaction: boolean): Database => ({
    dialect,
    inTransaction,
    // One recorder: the urgent lane's statements are recorded with the rest.
    urgent: () => handle(inTransaction),
    waitingForConnection: () => 0,
    tables: <T>() => kysely as unknown as Kysely<T>,
    ping: () => Promise.resolve(true),
    transaction: (work) => work(handle(true)),
    afterCommit: (callback) => callback(),
    readTextArrays: (list: readonly CompiledStatement[]) =>
      Promise.resolve(
        list.map((s) => {
          const statement = { sql: fold(s.sql), parameters: s.parameters };
          statements.push(statement);
          return answer(statement).map((row) =>
            Object.values(row).map((v) => (v === null ? null : typeof v === 'string' ? v : JSON.stringify(v))),
          );
        }),
      ),
    close: () => kysely.destroy(),
  });
  return { database: handle(false), statements };
}

/** The SQL texts `work` sends on a recording database of `dialect`. */
export async function sqlSent(
  dialect: Dialect,
  work: (database: Database) => Promise<unknown>,
  answer?: Answer,
): Promise<string[]> {
  const recording = recordingDatabase(dialect, answer);
  await work(recording.database);
  await recording.database.close();
  return recording.statements.map((s) => s.sql);
}

/** The SQL texts `work` sends on each dialect, side by side (for one inline snapshot per operation). */
export async function sqlPerDialect(
  work: (database: Database) => Promise<unknown>,
  answer?: Answer,
): Promise<Record<Dialect, string[]>> {
  return { sqlite: await sqlSent('sqlite', work, answer), postgres: await sqlSent('postgres', work, answer) };
}
