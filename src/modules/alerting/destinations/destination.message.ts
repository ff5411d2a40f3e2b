import type { AlertEvent, EventType } from './destination.contract.ts';

export type Severity = 'critical' | 'warning' | 'info' | 'ok';

export interface AlertMessage {
  /** One line, no markup, e.g. "DOWN: API health". */
  title: string;
  /** Plain text, several lines, no markup; providers escape it for their own format. */
  text: string;
  severity: Severity;
}

/** Human duration: "45s", "14m", "2h 5m", "3d 4h". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/** RFC 3339 in UTC without milliseconds: 2026-01-01T12:03:00Z. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Slack mrkdwn escaping (&, <, >). */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const SEVERITY: Record<EventType, Severity> = {
  down: 'critical',
  still_down: 'critical',
  incident_opened: 'critical',
  recovered: 'ok',
  incident_resolved: 'ok',
  security_grade_recovered: 'ok',
  performance_recovered: 'ok',
  anomaly_recovered: 'ok',
  cert_expiring: 'warning',
  security_grade_downgraded: 'warning',
  performance_anomaly: 'warning',
  anomaly_alert: 'warning',
  anomaly_flapping: 'warning',
  incident_acknowledged: 'info',
  significant_change: 'info',
  scheduled_report: 'info',
  test: 'info',
};

export function severityOf(type: EventType): Severity {
  return SEVERITY[type];
}

/** True for events that close what an earlier event opened (resolve / close on pager tools). */
export function isResolution(type: EventType): boolean {
  return SEVERITY[type] === 'ok';
}

function str(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function subjectName(event: AlertEvent): string {
  return event.monitor?.name ?? event.incident?.title ?? event.organization.name;
}

function headline(event: AlertEvent): string {
  const name = subjectName(event);
  const d = event.data;
  switch (event.type) {
    case 'down':
      return `DOWN: ${name}`;
    case 'still_down':
      return `STILL DOWN: ${name}`;
    case 'recovered':
      return `RECOVERED: ${name}`;
    case 'cert_expiring': {
      const days = str(d.days_to_expiry);
      return days === null ? `Certificate expiring: ${name}` : `Certificate expiring in ${days} days: ${name}`;
    }
    case 'security_grade_downgraded': {
      const from = str(d.previous_grade);
      const to = str(d.grade);
      return from && to ? `Security grade dropped ${from} → ${to}: ${name}` : `Security grade dropped: ${name}`;
    }
    case 'security_grade_recovered': {
      const to = str(d.grade);
      return to ? `Security grade recovered to ${to}: ${name}` : `Security grade recovered: ${name}`;
    }
    case 'significant_change': {
      const category = str(d.category);
      return category ? `Significant ${category} change: ${name}` : `Significant change: ${name}`;
    }
    case 'performance_anomaly':
      return `Slow responses: ${name}`;
    case 'performance_recovered':
      return `Response times back to normal: ${name}`;
    case 'anomaly_alert':
      return `Anomaly detected: ${name}`;
    case 'anomaly_recovered':
      return `Anomaly over: ${name}`;
    case 'anomaly_flapping':
      return `Flapping: ${name}`;
    case 'incident_opened':
      return event.incident
        ? `Incident #${event.incident.number} opened: ${event.incident.title}`
        : `Incident opened: ${name}`;
    case 'incident_acknowledged':
      return event.incident
        ? `Incident #${event.incident.number} acknowledged: ${event.incident.title}`
        : `Incident acknowledged: ${name}`;
    case 'incident_resolved':
      return event.incident
        ? `Incident #${event.incident.number} resolved: ${event.incident.title}`
        : `Incident resolved: ${name}`;
    case 'scheduled_report': {
      const report = str(d.report_name) ?? str(d.report_type) ?? 'report';
      return `Scheduled report: ${report}`;
    }
    case 'test':
      return 'Test notification from Tocsin';
  }
}

/**
 * The shared, plain-text description of an event: monitor name and target, cause, since when (relative and
 * RFC 3339, relative to when the event happened so the text is deterministic), incident number and link.
 */
export function messageFor(event: AlertEvent): AlertMessage {
  const lines: string[] = [];
  const m = event.monitor;
  const d = event.data;
  const at = event.occurred_at;
  if (m) lines.push(`Monitor: ${m.name} (${m.target})`);
  switch (event.type) {
    case 'down':
    case 'still_down':
      if (event.cause) lines.push(`Cause: ${event.cause}`);
      if (event.since !== null)
        lines.push(`Down for ${formatDuration(at - event.since)} (since ${rfc3339(event.since)})`);
      break;
    case 'recovered':
      if (event.since !== null) {
        lines.push(
          `Recovered after ${formatDuration(at - event.since)} of downtime (down since ${rfc3339(event.since)})`,
        );
      }
      if (event.cause) lines.push(`Last failure: ${event.cause}`);
      break;
    case 'cert_expiring': {
      const expires = typeof d.expires_at === 'number' ? rfc3339(d.expires_at) : str(d.expires_at);
      if (expires) lines.push(`Certificate expires: ${expires}`);
      break;
    }
    case 'performance_anomaly':
    case 'performance_recovered': {
      const latency = str(d.latency_ms);
      const threshold = str(d.threshold_ms);
      if (latency) lines.push(`Latency: ${latency} ms${threshold ? ` (threshold ${threshold} ms)` : ''}`);
      break;
    }
    case 'test':
      lines.push(`This is a test notification sent at ${rfc3339(at)}. If you can read it, the destination works.`);
      break;
    case 'scheduled_report': {
      const period = str(d.period);
      if (period) lines.push(`Period: ${period}`);
      const url = str(d.report_url);
      if (url) lines.push(`Report: ${url}`);
      break;
    }
    default:
      if (event.cause) lines.push(`Cause: ${event.cause}`);
  }
  const summary = str(d.summary);
  if (summary) lines.push(summary);
  if (event.incident) lines.push(`Incident #${event.incident.number}: ${event.incident.url}`);
  lines.push(`Organization: ${event.organization.name} · ${rfc3339(at)}`);
  return { title: headline(event), text: lines.join('\n'), severity: SEVERITY[event.type] };
}

/** Emoji prefix for chat tools. */
export function emojiFor(severity: Severity): string {
  switch (severity) {
    case 'critical':
      return '🔴';
    case 'warning':
      return '🟠';
    case 'info':
      return 'ℹ️';
    case 'ok':
      return '✅';
  }
}

/** Hex colour per severity (Slack attachments, email). */
export function colourFor(severity: Severity): string {
  switch (severity) {
    case 'critical':
      return '#e01e5a';
    case 'warning':
      return '#f2a33a';
    case 'info':
      return '#439fe0';
    case 'ok':
      return '#2eb886';
  }
}

/** Link to the thing the event is about: the incident, else the monitor page, else the dashboard. */
export function linkFor(event: AlertEvent, publicUrl: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  if (event.incident) return event.incident.url;
  if (event.monitor) return `${base}/monitors/${event.monitor.id}`;
  const report = event.data.report_url;
  if (typeof report === 'string' && report !== '') return report;
  return base;
}
