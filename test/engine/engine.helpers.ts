import { sql } from 'kysely';
import type { Database } from '../../src/platform/db/index.ts';

/** Raw counts for assertions (tests may query tables directly). */
export async function countRows(db: Database, table: string, where: Record<string, string> = {}): Promise<number> {
  const conds = Object.entries(where).map(([k, v]) => sql`${sql.ref(k)} = ${v}`);
  const whereSql = conds.length > 0 ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
  const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} ${whereSql}`.execute(
    db.tables<unknown>(),
  );
  return Number(r.rows[0]!.n);
}

export async function rows<T>(db: Database, query: string, params: unknown[] = []): Promise<T[]> {
  const parts = query.split('?');
  const q = sql.join(
    parts.map((p, i) => (i < params.length ? sql`${sql.raw(p)}${params[i]}` : sql.raw(p))),
    sql``,
  );
  const r = await sql<T>`${q}`.execute(db.tables<unknown>());
  return r.rows;
}
