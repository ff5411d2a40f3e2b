import { Link } from 'react-router';
import type { components } from '../api/schema';
import { dateTime, dayHeading } from '../lib/format';

export type IntelligenceEvent = components['schemas']['IntelligenceEvent'];
export type IntelligenceCategory = IntelligenceEvent['category'];
export type IntelligenceKind = IntelligenceEvent['kind'];

export const CATEGORY_LABELS: Record<IntelligenceCategory, string> = {
  dns: 'DNS',
  tls: 'TLS certificate',
  headers: 'Headers',
  content: 'Content',
  infrastructure: 'Infrastructure',
  performance: 'Performance',
  security: 'Security grade',
};

export const KIND_LABELS: Record<IntelligenceKind, string> = {
  significant_change: 'Change',
  anomaly_alert: 'Latency anomaly',
  anomaly_recovered: 'Latency back to normal',
  anomaly_flapping: 'Flapping',
  performance_anomaly: 'Slow responses',
  performance_recovered: 'Responses fast again',
  security_grade_downgraded: 'Grade dropped',
  security_grade_recovered: 'Grade recovered',
};

/** Severity in words and a shape (never colour alone). */
const SEVERITY: Record<IntelligenceEvent['severity'], { icon: string; text: string; badge: string }> = {
  info: { icon: 'i', text: 'Info', badge: 'badge-info' },
  warning: { icon: '⚠', text: 'Warning', badge: 'badge-pending' },
  critical: { icon: '✖', text: 'Critical', badge: 'badge-down' },
};

export function SeverityBadge({ severity }: { severity: IntelligenceEvent['severity'] }) {
  const s = SEVERITY[severity];
  return (
    <span className={`badge ${s.badge}`} data-severity={severity}>
      <span aria-hidden="true">{s.icon}</span> {s.text}
    </span>
  );
}

/** The day an event started on, in the viewer's time zone, as a heading and a stable key. */
function dayOf(iso: string): { key: string; label: string } {
  const d = new Date(iso);
  const key = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return {
    key,
    label: dayHeading(d),
  };
}

const CLOSING: readonly IntelligenceKind[] = ['anomaly_recovered', 'performance_recovered', 'security_grade_recovered'];

/**
 * When the event happened: a recovery when it ended (it carries the start of what it closes), anything else when
 * it started. The API lists events in the order they were recorded, which an anomaly (recorded after its
 * confirmation, dated from its first outlier) does not follow exactly.
 */
export function occurredAt(e: IntelligenceEvent): string {
  return CLOSING.includes(e.kind) ? (e.ended_at ?? e.started_at) : e.started_at;
}

/** Events newest first (by when they happened) grouped by that day. */
export function groupByDay(events: IntelligenceEvent[]): { key: string; label: string; events: IntelligenceEvent[] }[] {
  const groups: { key: string; label: string; events: IntelligenceEvent[] }[] = [];
  const sorted = [...events].sort((a, b) => Date.parse(occurredAt(b)) - Date.parse(occurredAt(a)));
  for (const e of sorted) {
    const day = dayOf(occurredAt(e));
    const last = groups[groups.length - 1];
    if (last?.key === day.key) last.events.push(e);
    else groups.push({ ...day, events: [e] });
  }
  return groups;
}

/** One event: when, how serious, what kind, which monitor and region, what happened, and whether it is still open. */
export function EventItem(props: { event: IntelligenceEvent; monitorName?: string; showMonitor?: boolean }) {
  const e = props.event;
  const opens = ['anomaly_alert', 'anomaly_flapping', 'performance_anomaly', 'security_grade_downgraded'].includes(
    e.kind,
  );
  return (
    <li className="intel-event" data-kind={e.kind} data-category={e.category}>
      <div className="intel-event-head">
        <time dateTime={occurredAt(e)}>{dateTime(occurredAt(e))}</time> <SeverityBadge severity={e.severity} />{' '}
        <strong>{KIND_LABELS[e.kind]}</strong> <span className="tag">{CATEGORY_LABELS[e.category]}</span>
        {props.showMonitor !== false && (
          <>
            {' '}
            <Link to={`/monitors/${e.monitor_id}`}>{props.monitorName ?? e.monitor_id}</Link>
          </>
        )}
        {e.region_code && <span className="muted"> · {e.region_code}</span>}
      </div>
      <p>{e.summary}</p>
      {(opens || CLOSING.includes(e.kind) || e.incident_id) && (
        <p className="muted small">
          {opens && (e.ended_at ? `Ended ${dateTime(e.ended_at)}.` : 'Still going on.')}
          {CLOSING.includes(e.kind) && `Began ${dateTime(e.started_at)}.`}
          {e.incident_id && (
            <>
              {' '}
              <Link to={`/incidents/${e.incident_id}`}>Its incident</Link>
            </>
          )}
        </p>
      )}
    </li>
  );
}
