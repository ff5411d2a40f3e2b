import type { components } from '../api/schema';

export type ScheduledReport = components['schemas']['ScheduledReport'];
export type ScheduledReportRun = components['schemas']['ScheduledReportRun'];
export type ReportType = ScheduledReport['report_type'];
export type Frequency = ScheduledReport['frequency'];

export const REPORT_TYPES: [ReportType, string][] = [
  ['availability', 'Availability'],
  ['performance', 'Performance'],
  ['sla', 'SLA'],
  ['incidents', 'Incidents'],
  ['intelligence', 'Intelligence'],
  ['monitor_health', 'Monitor health'],
  ['custom', 'Custom report'],
];

export const FREQUENCIES: [Frequency, string][] = [
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['monthly', 'Monthly'],
  ['quarterly', 'Quarterly (January, April, July, October)'],
];

/** 0 = Sunday … 6 = Saturday, as the API numbers them. */
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Destination types a report is never sent to (DECISIONS §12: a report is not an alert); the API refuses them. */
export const REFUSED_TYPES = new Set(['oncall_pager1', 'oncall_pager2', 'incident_tool1', 'incident_tool2']);

export function typeLabel(type: string): string {
  return REPORT_TYPES.find(([t]) => t === type)?.[1] ?? type;
}

/** "Every Monday at 08:00 (Europe/Berlin)" */
export function scheduleText(
  s: Pick<ScheduledReport, 'frequency' | 'day_of_week' | 'day_of_month' | 'time_of_day' | 'timezone'>,
): string {
  const when =
    s.frequency === 'daily'
      ? 'Every day'
      : s.frequency === 'weekly'
        ? `Every ${WEEKDAYS[s.day_of_week ?? 0]}`
        : s.frequency === 'monthly'
          ? `Monthly on day ${s.day_of_month}`
          : `Quarterly on day ${s.day_of_month}`;
  return `${when} at ${s.time_of_day} (${s.timezone})`;
}

/** Statuses of schedules, runs and deliveries in words and a shape, never colour alone. */
const STATUS: Record<string, { text: string; icon: string; tone: string }> = {
  never_run: { text: 'Never run', icon: '○', tone: 'paused' },
  delivering: { text: 'Delivering', icon: '…', tone: 'pending' },
  delivered: { text: 'Delivered', icon: '✔', tone: 'delivered' },
  logged: { text: 'Not sent: no SMTP server, written to the server log', icon: '✎', tone: 'paused' },
  partially_delivered: { text: 'Partially delivered', icon: '◐', tone: 'pending' },
  failed: { text: 'Failed', icon: '✖', tone: 'failed' },
  pending: { text: 'Pending', icon: '○', tone: 'pending' },
  in_flight: { text: 'Sending', icon: '↻', tone: 'pending' },
  paused: { text: 'Paused', icon: '❚❚', tone: 'paused' },
  active: { text: 'Active', icon: '▶', tone: 'up' },
};

export function DeliveryBadge({ status }: { status: string }) {
  const s = STATUS[status] ?? { text: status, icon: '•', tone: 'pending' };
  return (
    <span className={`badge badge-${s.tone}`} data-status={status}>
      <span aria-hidden="true">{s.icon}</span> {s.text}
    </span>
  );
}
