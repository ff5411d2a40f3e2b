import { toIso } from '../../platform/clock.ts';
import type { RecordedExecution } from '../checks/index.ts';
import type { DomainEvent } from '../events/index.ts';
import { formatPosition, type LiveEvent, type LivePosition, type LiveSources } from './live.types.ts';

const INCIDENT_STATUS = {
  incident_opened: ['incident.opened', 'open'],
  incident_acknowledged: ['incident.acknowledged', 'acknowledged'],
  incident_resolved: ['incident.resolved', 'resolved'],
} as const;

/**
 * The live events of one read of the outbox and the executions, after `start`: each carries the position right
 * after it (outbox events first, then executions, so positions only grow). Outbox events the feed does not tell
 * (still_down, intelligence, reports …) move the position without an event.
 */
export async function translate(
  sources: LiveSources,
  start: LivePosition,
  outbox: readonly DomainEvent[],
  executions: readonly RecordedExecution[],
): Promise<{ events: LiveEvent[]; end: LivePosition }> {
  const monitorIds = new Set<string>();
  for (const e of outbox) if (e.monitorId) monitorIds.add(e.monitorId);
  for (const x of executions) monitorIds.add(x.monitorId);
  const environments = monitorIds.size > 0 ? await sources.monitorEnvironments([...monitorIds]) : new Map();
  const envOf = (id: string | null) => (id ? (environments.get(id) ?? null) : null);

  const events: LiveEvent[] = [];
  let seq = start.seq;
  for (const e of outbox) {
    seq = Math.max(seq, Number(e.seq));
    const id = formatPosition({ seq, executionKey: start.executionKey });
    const base = {
      id,
      source: { outboxSeq: Number(e.seq) },
      organizationId: e.organizationId,
      monitorId: e.monitorId,
      environment: envOf(e.monitorId),
    };
    // Every status change has its monitor_status_changed (down/recovered come with it and are not told twice).
    if (e.type === 'monitor_status_changed' && e.monitorId) {
      events.push({
        ...base,
        type: 'monitor.status',
        scope: 'monitors:read',
        data: {
          monitor_id: e.monitorId,
          status: e.payload.to,
          previous_status: e.payload.from,
          at: toIso(e.occurredAt),
        },
      });
    } else if (e.type in INCIDENT_STATUS && e.incidentId) {
      const [type, status] = INCIDENT_STATUS[e.type as keyof typeof INCIDENT_STATUS];
      const facts =
        typeof e.payload.title === 'string' && typeof e.payload.incident_number === 'number'
          ? { number: e.payload.incident_number, title: e.payload.title }
          : await sources.incident(e.organizationId, e.incidentId);
      events.push({
        ...base,
        type,
        scope: 'incidents:read',
        data: {
          incident_id: e.incidentId,
          monitor_id: e.monitorId,
          number: facts?.number ?? null,
          title: facts?.title ?? null,
          status,
          at: toIso(e.occurredAt),
        },
      });
    }
  }
  let executionKey = start.executionKey;
  for (const x of executions) {
    executionKey = Math.max(executionKey, x.key);
    events.push({
      id: formatPosition({ seq, executionKey }),
      source: { executionKey: x.key },
      type: 'execution.recorded',
      organizationId: x.organizationId,
      monitorId: x.monitorId,
      environment: envOf(x.monitorId),
      scope: 'executions:read',
      data: {
        monitor_id: x.monitorId,
        execution_id: x.id,
        status: x.down ? 'down' : 'up',
        duration_ms: x.durationMs,
        at: toIso(x.startedAt),
      },
    });
  }
  return { events, end: { seq, executionKey } };
}
