import type { Monitor } from './monitor.types.ts';

/**
 * Decoded monitors of one SQLite connection, for the API's hottest read (`GET /monitors/{id}`): on this
 * embedded store the row read costs more than everything else the request does (locking the WAL, building
 * the row, parsing three JSON columns).
 *
 * Why it cannot serve stale data:
 * - every write to the `monitor` table goes through MonitorsRepository, which forgets the ids it wrote once
 *   the statement has run, on any handle of the connection (the cache is connection-local, shared with
 *   transaction handles);
 * - entries are read and filled only while no transaction is open on the connection (synchronously, in one
 *   step), so an uncommitted or rolled-back row never gets in;
 * - another connection's commit (another process on the same file) changes SQLite's `data_version`, which
 *   empties the cache before the next use.
 * Entries are deep-frozen: callers share them, so a caller that tried to modify one would throw.
 */
export class MonitorReadCache {
  private readonly entries = new Map<string, Monitor>();
  private dataVersion: number | undefined;
  private readonly maxEntries: number;

  constructor(maxEntries = 4096) {
    this.maxEntries = maxEntries;
  }

  /** The cached monitor if the database has not changed under it since `dataVersion`. */
  get(id: string, dataVersion: number): Monitor | undefined {
    if (dataVersion !== this.dataVersion) {
      this.entries.clear();
      this.dataVersion = dataVersion;
      return undefined;
    }
    return this.entries.get(id);
  }

  /** Keeps a monitor read at `dataVersion` (the value get() was just given); returns it frozen. */
  set(monitor: Monitor, dataVersion: number): Monitor {
    const frozen = deepFreeze(monitor);
    if (dataVersion !== this.dataVersion) return frozen;
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
