import { sql } from 'kysely';
import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

/**
 * Issue 36 item 8: the list's `tag` filter served by an index. `monitor_tag` holds one row per tag of each monitor
 * (the `tags` column keeps the list the API shows, in its order); the repository rewrites a monitor's rows in the
 * transaction that writes its tags, and deleting the monitor (or its organization) deletes them by the foreign key.
 * - the primary key (monitor, tag) answers "has this monitor the tag" and deletes a monitor's rows;
 * - (organization, tag, monitor) lists a tag's monitors without reading any other row.
 * Existing monitors' tags are copied in here.
 */
export const monitorsTagsMigration: SchemaMigration = {
  name: '202612011100_monitors_tags',
  async up(db) {
    await db.schema
      .createTable('monitor_tag')
      .addColumn('monitor_id', col.id, (c) => c.notNull().references('monitor.id').onDelete('cascade'))
      .addColumn('organization_id', col.id, (c) => c.notNull())
      .addColumn('tag', col.text, (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_tag_pk', ['monitor_id', 'tag'])
      .execute();
    await db.schema
      .createIndex('monitor_tag_org_tag_idx')
      .on('monitor_tag')
      .columns(['organization_id', 'tag', 'monitor_id'])
      .execute();
    let after = '';
    for (;;) {
      const rows = (await db
        .selectFrom('monitor' as never)
        .select(['id', 'organization_id', 'tags'] as never[])
        .where('id' as never, '>', after as never)
        .orderBy('id' as never)
        .limit(500)
        .execute()) as Array<{ id: string; organization_id: string; tags: string }>;
      if (rows.length === 0) break;
      const tagRows = rows.flatMap((row) =>
        [...new Set(JSON.parse(row.tags) as string[])].map((tag) => ({
          monitor_id: row.id,
          organization_id: row.organization_id,
          tag,
        })),
      );
      for (let i = 0; i < tagRows.length; i += 300) {
        await db
          .insertInto('monitor_tag' as never)
          .values(tagRows.slice(i, i + 300) as never)
          .execute();
      }
      after = rows[rows.length - 1]!.id;
    }
  },
};

/**
 * SQLite: the FTS5 rows of a monitor's search text are rewritten only when that text changes. The trigger of
 * 202612010800 fired on every update that set `search_text` (SQLite's `update of` names the columns set, not the
 * ones changed), so every save of a monitor rewrote its trigram rows, a large part of a PATCH's commit.
 */
export const monitorsSearchTriggerMigration: SchemaMigration = {
  name: '202612011101_monitors_search_trigger',
  async up(db, dialect) {
    if (dialect !== 'sqlite') return;
    await sql`drop trigger monitor_search_au`.execute(db);
    await sql`create trigger monitor_search_au after update of search_text on monitor
      when old.search_text is not new.search_text begin
        insert into monitor_search(monitor_search, rowid, search_text) values ('delete', old.rowid, old.search_text);
        insert into monitor_search(rowid, search_text) values (new.rowid, new.search_text); end`.execute(db);
  },
};
