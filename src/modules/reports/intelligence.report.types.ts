import type { IntelligenceCategory, IntelligenceKind, IntelligenceSeverity } from '../intelligence/index.ts';
import type { ReportPeriod } from './report.types.ts';

/** An intelligence event as GET /intelligence/events presents it, with the monitor's name added. */
export interface IntelligenceReportEvent {
  id: string;
  monitor_id: string;
  monitor_name: string | null;
  region_code: string | null;
  category: IntelligenceCategory;
  kind: IntelligenceKind;
  severity: IntelligenceSeverity;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  started_at: string;
  ended_at: string | null;
  incident_id: string | null;
  created_at: string;
}

export interface IntelligenceReportCorrelation {
  id: string;
  monitor_ids: string[];
  /** What the failing monitors have in common: an address, CDN, DNS provider, certificate issuer or region. */
  shared: { attribute: string; value: string };
  window: { from: string; to: string };
  /** Ids of the report's events of these monitors inside the window. */
  events: string[];
  coverage: number;
  summary: string;
}

export interface IntelligenceReport {
  report: 'intelligence';
  period: ReportPeriod;
  generated_at: string;
  methodology: string;
  summary: {
    events: number;
    by_category: Record<string, number>;
    by_severity: Record<string, number>;
    by_monitor: Record<string, number>;
  };
  events: IntelligenceReportEvent[];
  correlations: IntelligenceReportCorrelation[];
}
