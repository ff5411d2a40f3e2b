import { sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * PostgreSQL: the server cancels any statement of the open transaction `tx` that runs longer than `ms` (`SET LOCAL`,
 * so it ends with the transaction and the pooled connection keeps its default). SQLite runs statements synchronously
 * on the process's one connection and has no such limit: a no-op there.
 */
export async function limitStatementTime(tx: Database, ms: number): Promise<void> {
  if (tx.dialect !== 'postgres') return;
  if (!tx.inTransaction) throw new Error('limitStatementTime: only inside a transaction');
  // SET takes no bound parameters: the value is an integer checked here.
  const limit = Math.max(1, Math.floor(ms));
  if (!Number.isSafeInteger(limit)) throw new Error(`limitStatementTime: not a time in ms: ${ms}`);
  await sql`set local statement_timeout = ${sql.raw(String(limit))}`.execute(tx.tables());
}
