import { UNSILENCEABLE_EVENTS, type NotificationSubject, type Silence } from './silence.types.ts';

export function isActiveAt(silence: Silence, at: number): boolean {
  return silence.startsAt <= at && at < silence.endsAt;
}

/** Whether the silence's matchers all match the subject (time aside). */
export function matchesSubject(silence: Silence, subject: NotificationSubject): boolean {
  if (silence.organizationId !== subject.organizationId) return false;
  if (UNSILENCEABLE_EVENTS.includes(subject.eventType)) return false;
  const m = silence.matchers;
  if (m.monitorIds.length > 0 && (subject.monitorId === null || !m.monitorIds.includes(subject.monitorId)))
    return false;
  if (m.tags.length > 0 && !m.tags.some((t) => subject.monitorTags.includes(t))) return false;
  if (m.events.length > 0 && !m.events.includes(subject.eventType)) return false;
  if (
    m.destinationIds.length > 0 &&
    (subject.destinationId === null || !m.destinationIds.includes(subject.destinationId))
  )
    return false;
  return true;
}

/**
 * The silence that holds this notification back, or null. A notification is held when a matching silence was active
 * when its event happened or is active now (the event may wait in the outbox; either way the user asked for quiet).
 * The earliest-created match is named, so the choice is stable.
 */
export function silenceOf(
  silences: readonly Silence[],
  subject: NotificationSubject,
  occurredAt: number,
  now: number,
): Silence | null {
  let found: Silence | null = null;
  for (const s of silences) {
    if (!isActiveAt(s, occurredAt) && !isActiveAt(s, now)) continue;
    if (!matchesSubject(s, subject)) continue;
    if (found === null || s.id < found.id) found = s;
  }
  return found;
}
