import type { Database } from '../../../platform/db/index.ts';

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for pings: the items that arrive while a transaction is in flight wait for the next one, which writes
 * all of them (up to `maxBatch`, through `writeBatch`) and commits once; each caller is answered after that commit, so
 * an acknowledged ping is durable. A batch starts in the event loop's check phase (setImmediate), after the requests
 * whose bytes arrived in the same turn have been read: better-sqlite3 is synchronous, so a transaction started at once
 * would run to its commit in microtasks before the next request is even parsed, and every batch would hold one ping.
 * If a batch fails, each of its items is written again alone, so one bad ping never fails the others.
 */
export class PingCommitQueue<T> {
  private readonly database: Database;
  private readonly writeBatch: (tx: Database, items: T[]) => Promise<void>;
  private readonly maxBatch: number;
  private pending: Pending<T>[] = [];
  private flushing = false;

  constructor(database: Database, writeBatch: (tx: Database, items: T[]) => Promise<void>, maxBatch = 500) {
    this.database = database;
    this.writeBatch = writeBatch;
    this.maxBatch = maxBatch;
  }

  run(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, this.maxBatch);
        try {
          await this.database.transaction((tx) =>
            this.writeBatch(
              tx,
              batch.map((p) => p.item),
            ),
          );
          for (const p of batch) p.resolve();
        } catch {
          for (const p of batch) {
            try {
              await this.database.transaction((tx) => this.writeBatch(tx, [p.item]));
              p.resolve();
            } catch (error) {
              p.reject(error);
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
