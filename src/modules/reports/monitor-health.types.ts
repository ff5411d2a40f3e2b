import type { ReportPeriod } from './report.types.ts';

export const HEALTH_FINDING_KINDS = ['noisy', 'flapping', 'misconfigured', 'never_succeeded'] as const;
export type HealthFindingKind = (typeof HEALTH_FINDING_KINDS)[number];

export interface MonitorHealthFinding {
  kind: HealthFindingKind;
  /** Why, as a sentence with the numbers. */
  reason: string;
  /** The figures behind the reason (and the thresholds they were compared with). */
  evidence: Record<string, unknown>;
}

export interface MonitorHealthReport {
  report: 'monitor_health';
  period: ReportPeriod;
  generated_at: string;
  methodology: string;
  summary: { monitors: number; flagged: number; findings: Record<HealthFindingKind, number> };
  /** Every monitor judged, flagged ones first (by number of findings), then by name; healthy ones have no findings. */
  monitors: Array<{ monitor_id: string; name: string; findings: MonitorHealthFinding[] }>;
}
