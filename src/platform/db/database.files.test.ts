import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('SQLite files are private to the service user', () => {
  it('creates the data directory 0700 and the db, -wal and -shm files 0600', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'tocsin-modes-')), 'data', 'nested');
    const path = join(dataDir, 'tocsin.db');
    const database = openDatabase({ url: null, sqlitePath: path });
    try {
      await sql`create table t (x integer)`.execute(database.tables<unknown>());
      await sql`insert into t values (1)`.execute(database.tables<unknown>());
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(join(dataDir, '..'))).toBe(0o700);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect([file, modeOf(file)]).toEqual([file, 0o600]);
    } finally {
      await database.close();
    }
  });

  it('tightens the files of an existing installation made 0644', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tocsin-modes-'));
    const path = join(dir, 'tocsin.db');
    writeFileSync(path, '', { mode: 0o644 });
    const database = openDatabase({ url: null, sqlitePath: path });
    try {
      await sql`create table t (x integer)`.execute(database.tables<unknown>());
      expect(modeOf(path)).toBe(0o600);
      expect(modeOf(`${path}-wal`)).toBe(0o600);
    } finally {
      await database.close();
    }
  });
});
