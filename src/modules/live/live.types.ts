import type { RecordedExecution } from '../checks/index.ts';
import type { DomainEvent } from '../events/index.ts';

export const LIVE_EVENT_TYPES = [
  'monitor.status',
  'incident.opened',
  'incident.acknowledged',
  'incident.resolved',
  'execution.recorded',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** Where the feed stands: the last outbox event and the last stored execution it has read. */
export interface LivePosition {
  seq: number;
  executionKey: number;
}

/** One event of the live feed (GET /api/v1/events/stream). */
export interface LiveEvent {
  /** The feed position right after this event, `<seq>-<execution key>`: the SSE id a client resumes from. */
  id: string;
  /** The row it comes from (outbox seq or execution key): what a client that was replayed up to a position has seen. */
  source: { outboxSeq: number } | { executionKey: number };
  type: LiveEventType;
  organizationId: string;
  monitorId: string | null;
  /** The monitor's environment; null when the event has no monitor or the monitor no longer exists. */
  environment: string | null;
  /** What a key needs to receive it (a session receives everything of its organization). */
  scope: 'monitors:read' | 'incidents:read' | 'executions:read';
  data: Record<string, unknown>;
}

/** What the feed reads, from the modules that own it (wired by main.ts). */
export interface LiveSources {
  latestSeq(): Promise<number>;
  outboxAfter(seq: number, limit: number): Promise<DomainEvent[]>;
  latestExecutionKey(): Promise<number>;
  executionsAfter(key: number, limit: number): Promise<RecordedExecution[]>;
  /** The number and title of an incident, or null when it is gone. */
  incident(organizationId: string, id: string): Promise<{ number: number; title: string } | null>;
  monitorEnvironments(monitorIds: readonly string[]): Promise<Map<string, string>>;
}

/** One connected client of the feed. */
export interface LiveSubscriber {
  deliver(events: readonly LiveEvent[]): void;
  heartbeat(): void;
  /** The feed is shutting down: end the connection. */
  close(): void;
}

export function formatPosition(p: LivePosition): string {
  return `${p.seq}-${p.executionKey}`;
}

/** Whether the event's row is at or before `position` (a client replayed up to there has it already). */
export function coveredBy(event: LiveEvent, position: LivePosition): boolean {
  return 'outboxSeq' in event.source
    ? event.source.outboxSeq <= position.seq
    : event.source.executionKey <= position.executionKey;
}

/** The later of two positions, component by component. */
export function laterPosition(a: LivePosition, b: LivePosition): LivePosition {
  return { seq: Math.max(a.seq, b.seq), executionKey: Math.max(a.executionKey, b.executionKey) };
}

/** A `Last-Event-ID` back to a position; null when it is not one of ours. */
export function parsePosition(text: string | undefined): LivePosition | null {
  const m = text === undefined ? null : /^(\d{1,15})-(\d{1,15})$/.exec(text.trim());
  return m ? { seq: Number(m[1]), executionKey: Number(m[2]) } : null;
}
