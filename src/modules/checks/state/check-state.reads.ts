import type { Database } from '../../../platform/db/index.ts';
import { CheckStateRepository } from './check-state.repository.ts';

/** A monitor whose latest check failed in some region but whose outage is not (yet) confirmed by its thresholds. */
export interface UnconfirmedFailure {
  monitorId: string;
  /** The latest failing check of the region furthest into its run of failures. */
  lastAt: number;
  /** That region's consecutive failures so far. */
  failures: number;
}

/**
 * The monitors among `monitorIds` whose latest result in some region is a failure (read through `db`, so a result
 * batch sees the counters it has just saved, before its transitions are judged). The dependency decision
 * (DECISIONS §17) reads it: a parent failing its checks, not yet `down`, holds its children's alerts until its own
 * verdict is in.
 */
export async function unconfirmedFailures(
  db: Database,
  monitorIds: readonly string[],
): Promise<Map<string, UnconfirmedFailure>> {
  const out = new Map<string, UnconfirmedFailure>();
  if (monitorIds.length === 0) return out;
  for (const [monitorId, regions] of await new CheckStateRepository(db).load(monitorIds)) {
    for (const r of regions) {
      if (r.lastStatus !== 'down' || r.failures === 0 || r.lastAt === null) continue;
      const seen = out.get(monitorId);
      if (!seen || r.failures > seen.failures)
        out.set(monitorId, { monitorId, lastAt: r.lastAt, failures: r.failures });
    }
  }
  return out;
}
