import type { Database } from '../../../platform/db/index.ts';
import { CheckStateRepository } from './check-state.repository.ts';

/**
 * The regions whose latest check of the monitor failed, as `db` sees them (pass the result batch's transaction: the
 * state machine's counters of this batch are written there before the transition listeners run). Sorted.
 */
export async function failingRegionsOf(db: Database, monitorId: string): Promise<string[]> {
  const counters = (await new CheckStateRepository(db).load([monitorId])).get(monitorId) ?? [];
  return counters
    .filter((c) => c.lastStatus === 'down')
    .map((c) => c.regionCode)
    .sort();
}
