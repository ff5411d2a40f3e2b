import { closeSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

export interface SqliteBackup {
  /** Size of the copy in bytes. */
  bytes: number;
  /** Database pages copied. */
  pages: number;
}

/**
 * A consistent copy of a live SQLite database (WAL mode, written by `tocsin serve` meanwhile), made with SQLite's
 * online backup API. The pages are copied in one step, i.e. inside one read transaction: in WAL mode that never
 * blocks the writer, and the copy is the database as of one commit. The copy is written next to `targetPath`,
 * checked with `PRAGMA integrity_check`, switched to a self-contained rollback journal (no -wal file beside it),
 * made readable by its owner only (it holds API key hashes and sealed secrets), and only then renamed over
 * `targetPath`, so an existing file is replaced only by a good copy.
 */
export async function backupSqlite(sourcePath: string, targetPath: string): Promise<SqliteBackup> {
  const source = new BetterSqlite3(sourcePath, { fileMustExist: true });
  const partial = `${targetPath}.partial-${process.pid}`;
  try {
    source.pragma('busy_timeout = 5000');
    // Created empty and 0600 before SQLite writes anything into it.
    closeSync(openSync(partial, 'wx', 0o600));
    // The first step only measures; returning a page count above any database's makes the next step copy all.
    const { totalPages } = await source.backup(partial, { progress: () => 0x7fffffff });
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
      const result = copy.pragma('integrity_check', { simple: true });
      if (result !== 'ok') throw new Error(`the copy failed PRAGMA integrity_check: ${String(result)}`);
    } finally {
      copy.close();
    }
    renameSync(partial, targetPath);
    return { bytes: statSync(targetPath).size, pages: totalPages };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    source.close();
  }
}
