/**
 * Processes that start on one new SQLite file at once (`tocsin serve` and `tocsin admin bootstrap`, two serves) migrate
 * it once between them: the upgrade is one `begin immediate` transaction, so the later ones wait for the first's
 * commit and then find nothing left to apply (before, a second process failed with "table … already exists").
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS } from '../../src/main.ts';
import { migrateToLatest, openDatabase, type SchemaMigration } from '../../src/platform/db/index.ts';

const CHILD = join(import.meta.dirname, 'migrate.child.ts');
const dir = mkdtempSync(join(tmpdir(), 'tocsin-migrate-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations of one SQLite file by several processes at once', () => {
  it('apply each migration once, and every process starts', { timeout: 120_000 }, async () => {
    const file = join(dir, 'tocsin.db');
    // The same instant for all, after every process has loaded (a few seconds on a loaded 2-core machine).
    const startAt = String(Date.now() + 8_000);
    const runs = await Promise.allSettled(
      [1, 2, 3].map(() => promisify(execFile)(process.execPath, [CHILD, file, startAt], { timeout: 100_000 })),
    );
    const failures = runs.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
    expect(failures).toEqual([]);
    const applied = runs.map((r) =>
      r.status === 'fulfilled' ? (JSON.parse(r.value.stdout) as { applied: number }).applied : -1,
    );
    // One process applied them all; the others found nothing to do.
    expect([...applied].sort((a, b) => b - a)).toEqual([ALL_MIGRATIONS.length, 0, 0]);
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const rows = db.prepare('select name from tocsin_migration').all() as Array<{ name: string }>;
      expect(rows.map((r) => r.name).sort()).toEqual(ALL_MIGRATIONS.map((m) => m.name).sort());
    } finally {
      db.close();
    }
  });

  it('roll back the whole upgrade when one of its migrations fails', async () => {
    const file = join(dir, 'failing.db');
    const made: SchemaMigration = {
      name: '202601010000_test_made',
      up: async (db) => db.schema.createTable('made_first').addColumn('id', 'text').execute(),
    };
    const failing: SchemaMigration = {
      name: '202601010001_test_failing',
      up: async () => {
        throw new Error('this migration fails');
      },
    };
    const database = openDatabase({ url: null, sqlitePath: file });
    try {
      await expect(migrateToLatest(database, [made, failing])).rejects.toThrow(
        /migration 202601010001_test_failing failed: this migration fails/,
      );
    } finally {
      await database.close();
    }
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const tables = db.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>;
      expect(tables.map((t) => t.name)).not.toContain('made_first');
      const applied = db.prepare('select count(*) as n from tocsin_migration').get() as { n: number };
      expect(applied.n).toBe(0);
    } finally {
      db.close();
    }
  });
});
