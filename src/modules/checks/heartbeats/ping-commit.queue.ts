import type { Database } from '../../../platform/db/index.ts';

interface Pending {
  work: (tx: Database) => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for pings: the work that arrives while a transaction is in flight waits for the next one, which runs
 * all of it (up to `maxBatch`) and commits once; each caller is answered after that commit, so an acknowledged ping
 * is durable. A batch starts in the event loop's check phase (setImmediate), after the requests whose bytes arrived
 * in the same turn have been read: better-sqlite3 is synchronous, so a transaction started at once would run to its
 * commit in microtasks before the next request is even parsed, and every batch would hold one ping. If a batch
 * fails, each of its pings is run again alone, so one bad ping never fails the others.
 */
export class PingCommitQueue {
  private readonly database: Database;
  private readonly maxBatch: number;
  private pending: Pending[] = [];
  private flushing = false;

  constructor(database: Database, maxBatch = 500) {
    this.database = database;
    this.maxBatch = maxBatch;
  }

  run(work: (tx: Database) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ work, resolve, reject });
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
          await this.database.transaction(async (tx) => {
            for (const item of batch) await item.work(tx);
          });
          for (const item of batch) item.resolve();
        } catch {
          for (const item of batch) {
            try {
              await this.database.transaction((tx) => item.work(tx));
              item.resolve();
            } catch (error) {
              item.reject(error);
            }
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
