import type { AlertEvent, EventType } from './destination.contract.ts';
import { reportFilesOf, scheduledReportLines } from './destination.report.ts';
import { plural } from '../../../platform/plural.ts';

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
  if (m < 60) return s % 60 ? `${m}m ${s % 60}s` : `${m}m`;
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
  maintenance_started: 'info',
  maintenance_ended: 'info',
  // Not an outage (DECISIONS §20): a warning, and its end closes it like a recovery (pagers resolve).
  degraded: 'warning',
  degraded_recovered: 'ok',
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
      const days = typeof d.days_to_expiry === 'number' ? d.days_to_expiry : Number(str(d.days_to_expiry) ?? NaN);
      // A domain monitor's registration expiry goes out as cert_expiring too (data.kind "domain").
      const what = d.kind === 'domain' ? 'Domain registration' : 'Certificate';
      return Number.isFinite(days)
        ? `${what} expiring in ${plural(days, 'day')}: ${name}`
        : `${what} expiring: ${name}`;
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
      return nested(d, 'after', 'flapping') === false ? `Flapping stopped: ${name}` : `Flapping: ${name}`;
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
    case 'maintenance_started':
      return `Maintenance started: ${str(d.name) ?? name}`;
    case 'maintenance_ended':
      return `Maintenance ended: ${str(d.name) ?? name}`;
    case 'degraded':
      return `DEGRADED: ${name}`;
    case 'degraded_recovered':
      return `NO LONGER DEGRADED: ${name}`;
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
      if (expires) lines.push(`${d.kind === 'domain' ? 'Registration' : 'Certificate'} expires: ${expires}`);
      break;
    }
    case 'performance_anomaly':
    case 'performance_recovered': {
      const latency = str(d.latency_ms);
      const threshold = str(d.threshold_ms);
      const peak = str(nested(d, 'before', 'peak_ms'));
      if (latency)
        lines.push(
          `Latency: ${latency} ms${threshold ? ` (threshold ${threshold} ms)` : ''}${peak ? `; slowest was ${peak} ms` : ''}`,
        );
      break;
    }
    case 'anomaly_alert':
    case 'anomaly_recovered':
      lines.push(...baselineLines(d));
      break;
    case 'anomaly_flapping': {
      const percent = str(nested(d, 'after', 'percent_state_change'));
      if (percent) lines.push(`State changes: ${percent} % of recent checks`);
      break;
    }
    case 'security_grade_downgraded':
    case 'security_grade_recovered':
      lines.push(...gradeLines(d));
      break;
    case 'significant_change':
      lines.push(...changeLines(d));
      break;
    case 'degraded': {
      if (event.cause) lines.push(`Cause: ${event.cause}`);
      const latency = str(d.latency_ms);
      const threshold = str(d.threshold_ms);
      if (latency && threshold) lines.push(`Latency: ${latency} ms (degraded above ${threshold} ms)`);
      lines.push('Not an outage: the monitor is up, with degraded performance.');
      break;
    }
    case 'degraded_recovered':
      if (event.since !== null) {
        lines.push(
          `Back to normal after ${formatDuration(at - event.since)} of degraded performance (degraded since ${rfc3339(event.since)})`,
        );
      }
      break;
    case 'test':
      lines.push(`This is a test notification sent at ${rfc3339(at)}. If you can read it, the destination works.`);
      break;
    case 'scheduled_report':
      lines.push(...scheduledReportLines(event));
      break;
    case 'maintenance_started':
    case 'maintenance_ended': {
      const starts = str(d.starts_at);
      const ends = str(d.ends_at);
      if (starts && ends) lines.push(`Window: ${starts} to ${ends}`);
      break;
    }
    default:
      if (event.cause) lines.push(`Cause: ${event.cause}`);
  }
  const region = str(d.region_code);
  if (region && typeof d.intelligence_event_id === 'string') lines.push(`Region: ${region}`);
  const summary = event.type === 'scheduled_report' ? null : str(d.summary);
  if (summary) lines.push(summary);
  if (event.incident) lines.push(`Incident #${event.incident.number}: ${event.incident.url}`);
  lines.push(`Organization: ${event.organization.name} · ${rfc3339(at)}`);
  return { title: headline(event), text: lines.join('\n'), severity: SEVERITY[event.type] };
}

/** `data[outer][key]` of an intelligence payload (its `before` / `after` objects), or undefined. */
function nested(d: Record<string, unknown>, outer: 'before' | 'after', key: string): unknown {
  const o = d[outer];
  return o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
}

function valuesOf(value: unknown, max = 5): string | null {
  if (!Array.isArray(value)) return null;
  const shown = value.slice(0, max).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (shown.length === 0) return '(none)';
  return shown.join(', ') + (value.length > max ? ` (+${value.length - max} more)` : '');
}

/** The latency against the learnt baseline (anomaly_alert has it in `before`, anomaly_recovered in `after`). */
function baselineLines(d: Record<string, unknown>): string[] {
  const median = str(nested(d, 'before', 'expected_median_ms') ?? nested(d, 'after', 'expected_median_ms'));
  const mad = str(nested(d, 'before', 'expected_mad_ms') ?? nested(d, 'after', 'expected_mad_ms'));
  const latency = str(d.latency_ms ?? nested(d, 'after', 'latency_ms'));
  const peak = str(nested(d, 'before', 'peak_ms'));
  if (!latency) return [];
  const usual = median ? ` (usual ${median} ms${mad ? ` ± ${mad} ms` : ''})` : '';
  return [`Latency: ${latency} ms${usual}${peak ? `; peaked at ${peak} ms` : ''}`];
}

/** The grade from → to and the reasons behind the new grade. */
function gradeLines(d: Record<string, unknown>): string[] {
  const out: string[] = [];
  const from = str(d.previous_grade);
  const to = str(d.grade);
  const kind = str(d.grade_kind);
  if (to) out.push(`Grade${kind ? ` (${kind})` : ''}: ${from ? `${from} → ` : ''}${to}`);
  const reasons = nested(d, 'after', 'reasons');
  if (Array.isArray(reasons) && reasons.length > 0) out.push(`Reasons: ${valuesOf(reasons, 8)}`);
  return out;
}

/** What changed, from what to what (the observed values before and after). */
function changeLines(d: Record<string, unknown>): string[] {
  const out: string[] = [];
  const facet = str(nested(d, 'after', 'facet'));
  const severity = str(d.severity);
  if (facet) out.push(`Changed: ${facet}${severity ? ` (${severity})` : ''}`);
  const before = valuesOf(nested(d, 'before', 'values'));
  const after = valuesOf(nested(d, 'after', 'values'));
  // A content digest or a certificate fingerprint says nothing to a reader: the summary describes those.
  if (before !== null && after !== null && facet !== 'content' && facet !== 'tls:certificate')
    out.push(`From: ${before}`, `To: ${after}`);
  return out;
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
  const file = reportFilesOf(event).pdf ?? reportFilesOf(event).csv;
  if (file) return file.url;
  return base;
}
