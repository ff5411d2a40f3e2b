import type { AlertEvent, EventType } from './destination.contract.ts';
import { linkFor, type Severity } from './destination.message.ts';
import { plural } from '../../../platform/plural.ts';

/** The events a destination with a grouping window gathers into one message (DECISIONS §17). */
export const GROUPABLE_EVENTS: readonly EventType[] = ['down', 'recovered', 'still_down'];

/** One event of a group, as a line of the message. */
export interface GroupLine {
  event: AlertEvent;
  /** "DOWN", "RECOVERED", "STILL DOWN". */
  label: string;
  severity: Severity;
  /** The monitor's name (or the event's own title without a monitor). */
  name: string;
  /** Plain text after the name: the cause of a down, e.g. "HTTP 503 (expected 200)"; "" otherwise. */
  detail: string;
  link: string;
}

/** A group of events as one message: a plain title and one line per event, in the order they happened. */
export interface GroupMessage {
  /** e.g. "3 monitors down, 1 recovered". */
  title: string;
  severity: Severity;
  lines: GroupLine[];
  /** Plain text: one line per event. */
  text: string;
}

const LABEL: Partial<Record<EventType, string>> = { down: 'DOWN', recovered: 'RECOVERED', still_down: 'STILL DOWN' };

function lineOf(event: AlertEvent, publicUrl: string): GroupLine {
  const label = LABEL[event.type] ?? event.type.toUpperCase();
  const severity: Severity = event.type === 'recovered' ? 'ok' : 'critical';
  // One short line per monitor (a group may hold hundreds): the target is on the linked page.
  return {
    event,
    label,
    severity,
    name: event.monitor?.name ?? label,
    detail: event.type === 'recovered' ? '' : (event.cause ?? ''),
    link: linkFor(event, publicUrl),
  };
}

export function groupMessageFor(events: readonly AlertEvent[], publicUrl: string): GroupMessage {
  const lines = [...events].sort((a, b) => a.occurred_at - b.occurred_at).map((e) => lineOf(e, publicUrl));
  const count = (type: EventType) => lines.filter((l) => l.event.type === type).length;
  const parts: string[] = [];
  const down = count('down');
  const still = count('still_down');
  const recovered = count('recovered');
  if (down > 0) parts.push(`${plural(down, 'monitor')} down`);
  if (still > 0) parts.push(`${still} still down`);
  if (recovered > 0) parts.push(`${recovered} recovered`);
  const title = parts.join(', ');
  const text = lines.map((l) => `${l.label}: ${l.name}${l.detail ? ` (${l.detail})` : ''}`).join('\n');
  return { title, severity: down + still > 0 ? 'critical' : 'ok', lines, text };
}
