import type { DeliveriesRepository } from '../deliveries.repository.ts';
import type { DeliveryRecord } from '../alerting.types.ts';
import { GROUPABLE_EVENTS } from '../destinations/destination.group.ts';

/**
 * Grouping (DECISIONS §17), inside the fan-out's transaction: a pending `down`, `recovered` or `still_down` delivery
 * to a destination with a window joins the destination's open group (status `grouped`, `groupId` = the group's first
 * delivery), or opens one: it becomes the group's first delivery, due when the window ends. Everything is a row of
 * the outbox's transaction, so a crash in the window loses nothing, and the first delivery's attempt sends the group
 * once (its lease, as for any delivery). `windowOf` gives a destination's window in seconds (0 or absent: none).
 */
export async function assignGroups(
  repo: DeliveriesRepository,
  deliveries: DeliveryRecord[],
  windowOf: (destinationId: string) => number,
  now: number,
): Promise<void> {
  const open = new Map<string, { id: string; closesAt: number } | null>();
  for (const d of deliveries) {
    if (d.status !== 'pending' || d.target.kind !== 'destination' || !GROUPABLE_EVENTS.includes(d.eventType)) continue;
    const destinationId = d.target.destinationId;
    const windowSeconds = windowOf(destinationId);
    if (windowSeconds <= 0) continue;
    if (!open.has(destinationId)) open.set(destinationId, await repo.openGroupOf(destinationId, now));
    const group = open.get(destinationId);
    if (group && now < group.closesAt) {
      d.status = 'grouped';
      d.groupId = group.id;
      continue;
    }
    d.groupId = d.id;
    d.nextAttemptAt = now + windowSeconds * 1000;
    open.set(destinationId, { id: d.id, closesAt: d.nextAttemptAt });
  }
}
