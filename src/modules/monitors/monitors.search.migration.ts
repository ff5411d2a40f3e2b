import { sql } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';
import { searchTextOf, sortNameOf } from './monitor.search.ts';

/**
 * Issue 36 item 8: the list's text search served by an index, and its sorts by name paged by key.
 * - `search_text` (name and target, lowered) and `sort_name` (name, lowered), written by the repository;
 * - SQLite: an FTS5 trigram table over `search_text` (substring matches of three characters or more), kept by
 *   triggers so that every write path, cascades included, keeps it in step;
 * - PostgreSQL: a pg_trgm GIN index on `search_text` when the extension can be created (a contrib module, trusted
 *   since PostgreSQL 13); without it the same LIKE query scans, so the app works either way;
 * - `sort_name` in byte order on both (PostgreSQL: COLLATE "C"), so that ORDER BY and the keyset cursor agree;
 * - an index on (organization, status, id) for the status filter.
 */
export const monitorsSearchMigration: SchemaMigration = {
  name: '202612010800_monitors_search',
  async up(db, dialect) {
    await db.schema
      .alterTable('monitor')
      .addColumn('search_text', col.text, (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('monitor')
      .addColumn('sort_name', col.text, (c) =>
        dialect === 'postgres'
          ? c
              .notNull()
              .defaultTo('')
              .modifyFront(sql`collate "C"`)
          : c.notNull().defaultTo(''),
      )
      .execute();
    // Backfill, lowered as the repository lowers (not by SQL's lower(), which differs between the databases).
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('monitor' as never)
        .select(['id', 'name', 'target'] as never[])
        .where('id' as never, '>', after as never)
        .orderBy('id' as never)
        .limit(500)
        .execute();
      if (rows.length === 0) break;
      for (const row of rows as Array<{ id: string; name: string; target: string }>) {
        await db
          .updateTable('monitor' as never)
          .set({ search_text: searchTextOf(row.name, row.target), sort_name: sortNameOf(row.name) } as never)
          .where('id' as never, '=', row.id as never)
          .execute();
        after = row.id;
      }
    }
    await db.schema
      .createIndex('monitor_org_sort_name_idx')
      .on('monitor')
      .columns(['organization_id', 'sort_name', 'id'])
      .execute();
    // `status=down` (or pending) lists read the few matching rows instead of scanning the organization's.
    await db.schema
      .createIndex('monitor_org_status_idx')
      .on('monitor')
      .columns(['organization_id', 'status', 'id'])
      .execute();
    if (dialect === 'sqlite') {
      await sql`create virtual table monitor_search using fts5(search_text, content='monitor', content_rowid='rowid', tokenize='trigram')`.execute(
        db,
      );
      await sql`insert into monitor_search(rowid, search_text) select rowid, search_text from monitor`.execute(db);
      await sql`create trigger monitor_search_ai after insert on monitor begin
        insert into monitor_search(rowid, search_text) values (new.rowid, new.search_text); end`.execute(db);
      await sql`create trigger monitor_search_ad after delete on monitor begin
        insert into monitor_search(monitor_search, rowid, search_text) values ('delete', old.rowid, old.search_text); end`.execute(
        db,
      );
      await sql`create trigger monitor_search_au after update of search_text on monitor begin
        insert into monitor_search(monitor_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
        insert into monitor_search(rowid, search_text) values (new.rowid, new.search_text); end`.execute(db);
      return;
    }
    // The migration runs in a transaction: a failed CREATE EXTENSION (not installed, no privilege) is rolled back
    // to the savepoint and the search goes on without the index.
    await sql`savepoint monitor_search_trgm`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index monitor_search_trgm_idx on monitor using gin (search_text gin_trgm_ops)`.execute(db);
      await sql`release savepoint monitor_search_trgm`.execute(db);
    } catch {
      await sql`rollback to savepoint monitor_search_trgm`.execute(db);
    }
  },
};
