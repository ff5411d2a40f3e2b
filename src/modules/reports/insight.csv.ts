import { csvDocument, type CsvCell } from '../../platform/csv.format.ts';
import type { IntelligenceReport } from './intelligence.report.types.ts';
import type { MonitorHealthReport } from './monitor-health.types.ts';

/** One row per event: the event's JSON fields (before/after as JSON text), then the period. */
export const INTELLIGENCE_CSV_COLUMNS = [
  'id',
  'monitor_id',
  'monitor_name',
  'region_code',
  'category',
  'kind',
  'severity',
  'summary',
  'before',
  'after',
  'started_at',
  'ended_at',
  'incident_id',
  'created_at',
  'period_from',
  'period_to',
  'timezone',
] as const;

const json = (v: Record<string, unknown> | null) => (v === null ? null : JSON.stringify(v));

export function intelligenceRows(r: IntelligenceReport): CsvCell[][] {
  return r.events.map((e) => [
    e.id,
    e.monitor_id,
    e.monitor_name,
    e.region_code,
    e.category,
    e.kind,
    e.severity,
    e.summary,
    json(e.before),
    json(e.after),
    e.started_at,
    e.ended_at,
    e.incident_id,
    e.created_at,
    r.period.from,
    r.period.to,
    r.period.timezone,
  ]);
}

export function intelligenceCsv(r: IntelligenceReport): string {
  return csvDocument(INTELLIGENCE_CSV_COLUMNS, intelligenceRows(r));
}

/** One row per finding (monitors without findings have no row): evidence as JSON text. */
export const MONITOR_HEALTH_CSV_COLUMNS = [
  'monitor_id',
  'name',
  'kind',
  'reason',
  'evidence',
  'period_from',
  'period_to',
  'timezone',
] as const;

export function monitorHealthRows(r: MonitorHealthReport): CsvCell[][] {
  return r.monitors.flatMap((m) =>
    m.findings.map((f) => [
      m.monitor_id,
      m.name,
      f.kind,
      f.reason,
      JSON.stringify(f.evidence),
      r.period.from,
      r.period.to,
      r.period.timezone,
    ]),
  );
}

export function monitorHealthCsv(r: MonitorHealthReport): string {
  return csvDocument(MONITOR_HEALTH_CSV_COLUMNS, monitorHealthRows(r));
}
