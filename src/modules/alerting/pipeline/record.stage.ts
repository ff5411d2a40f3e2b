import type { Database } from '../../../platform/db/index.ts';
import type { SendResult } from '../destinations/index.ts';
import { DeliveriesRepository } from '../deliveries.repository.ts';
import { DestinationsRepository } from '../destinations.repository.ts';
import type { DeliveryRecord } from '../alerting.types.ts';
import type { AttemptVerdict } from './classify.stage.ts';

/**
 * Record: the delivery's end and the destination's last success/failure (and provider state) in one transaction,
 * and only while this worker still holds the lease; returns false when the lease was lost (then nothing is written:
 * the worker that took it over records its own attempt).
 */
export async function recordAttempt(
  database: Database,
  owner: string,
  delivery: DeliveryRecord,
  result: SendResult,
  verdict: AttemptVerdict,
): Promise<boolean> {
  return database.transaction(async (tx) => {
    const deliveries = new DeliveriesRepository(tx);
    const kept = await deliveries.finishAttempt(delivery.id, owner, verdict.delivery);
    // A group's first delivery carried the whole group's message: the others end with it.
    if (kept && delivery.groupId === delivery.id && verdict.delivery.status !== 'pending')
      await deliveries.settleGroup(delivery.id, verdict.delivery);
    if (!kept || delivery.target.kind !== 'destination' || verdict.destination === null) return kept;
    const statePatch = result.outcome === 'ok' || result.outcome === 'retry' ? result.state_patch : undefined;
    await new DestinationsRepository(tx).recordAttempt(delivery.target.destinationId, verdict.destination, statePatch);
    return true;
  });
}
