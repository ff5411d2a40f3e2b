export interface IntelligenceEventRow {
  id: string;
  organization_id: string;
  monitor_id: string;
  region_code: string | null;
  category: string;
  kind: string;
  severity: string;
  summary: string;
  before: string | null;
  after: string | null;
  started_at: number;
  ended_at: number | null;
  incident_id: string | null;
  open_key: string | null;
  created_at: number;
}

export interface IntelligenceTables {
  intelligence_attributes: {
    monitor_id: string;
    region_code: string;
    organization_id: string;
    attributes: string;
    updated_at: number;
  };
  intelligence_signal: { organization_id: string; monitor_id: string; region_code: string; at: number; reason: string };
  intelligence_event: IntelligenceEventRow;
  intelligence_state: { monitor_id: string; region_code: string; state: string; updated_at: number };
  intelligence_observation: { monitor_id: string; region_code: string; observed_at: number; snapshot: string };
  intelligence_grade: {
    monitor_id: string;
    kind: string;
    grade: string;
    score: number;
    reasons: string;
    not_tested: string;
    graded_at: number;
  };
  intelligence_correlation: {
    id: string;
    organization_id: string;
    attribute: string;
    value: string;
    monitor_ids: string;
    coverage: number;
    summary: string;
    started_at: number;
    last_seen_at: number;
  };
}
