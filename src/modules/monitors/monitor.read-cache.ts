import type { Monitor } from './monitor.types.ts';

/** How long another connection's commit may go unnoticed (with a clock; without one, every read checks). */
export const OTHER_CONNECTION_CHECK_MS = 100;

/**
 * Decoded monitors of one SQLite connection, for the API's hottest read (`GET /monitors/{id}`): on this
 * embedded store the row read costs more than everything else the request does (a read transaction locks
 * the WAL with two fcntl calls, builds the row and parses three JSON columns).
 *
 * Why it does not serve stale data:
 * - every write to the `monitor` table goes through MonitorsRepository, which forgets the ids it wrote once
 *   the statement has run, on any handle of the connection (the cache is connection-local, shared with
 *   transaction handles);
 * - entries are read and filled only while no transaction is open on the connection (synchronously, in one
 *   step), so an uncommitted or rolled-back row never gets in;
 * - another connection's commit (another process on the same file; Tocsin's own CLI never writes monitors)
 *   changes SQLite's `data_version`, which empties the cache. Reading it is itself a read transaction, so it
 *   is read at most every OTHER_CONNECTION_CHECK_MS: another process's change is seen within 100 ms.
 * Entries are deep-frozen: callers share them, so a caller that tried to modify one would throw.
 */
export class MonitorReadCache {
  private readonly entries = new Map<string, Monitor>();
  private dataVersion: number | undefined;
  private checkedAt: number | undefined;
  private readonly maxEntries: number;

  constructor(maxEntries = 4096) {
    this.maxEntries = maxEntries;
  }

  /** Whether `data_version` must be read before the cache is used at `now` (always, without a clock). */
  needsVersionCheck(now: number | undefined): boolean {
    return (
      now === undefined ||
      this.checkedAt === undefined ||
      now - this.checkedAt >= OTHER_CONNECTION_CHECK_MS ||
      now < this.checkedAt
    );
  }

  /** Records the `data_version` just read; a change empties the cache. */
  observeVersion(dataVersion: number, now: number | undefined): void {
    if (dataVersion !== this.dataVersion) {
      this.entries.clear();
      this.dataVersion = dataVersion;
    }
    this.checkedAt = now;
  }

  get(id: string): Monitor | undefined {
    return this.entries.get(id);
  }

  /** Keeps a monitor just read (in the same synchronous step as the version check); returns it frozen. */
  set(monitor: Monitor): Monitor {
    const frozen = deepFreeze(monitor);
    // Bounded by emptying: the ids read over and over come back in at once.
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(monitor.id, frozen);
    return frozen;
  }

  forget(ids: readonly string[]): void {
    for (const id of ids) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
