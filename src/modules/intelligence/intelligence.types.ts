/** DECISIONS §9: the categories of an intelligence event. */
export const INTELLIGENCE_CATEGORIES = [
  'dns',
  'tls',
  'headers',
  'content',
  'infrastructure',
  'performance',
  'security',
] as const;
export type IntelligenceCategory = (typeof INTELLIGENCE_CATEGORIES)[number];

/** DECISIONS §13: every intelligence event is one of the outbox event types it raises. */
export const INTELLIGENCE_KINDS = [
  'significant_change',
  'anomaly_alert',
  'anomaly_recovered',
  'anomaly_flapping',
  'performance_anomaly',
  'performance_recovered',
  'security_grade_downgraded',
  'security_grade_recovered',
] as const;
export type IntelligenceKind = (typeof INTELLIGENCE_KINDS)[number];

export const INTELLIGENCE_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type IntelligenceSeverity = (typeof INTELLIGENCE_SEVERITIES)[number];

/**
 * What a detector decided, before it is stored. A finding that starts something with a duration (an anomaly,
 * flapping, slow responses) carries `opens`; the finding that ends it carries `closes` with the same key, and
 * the stored event of the opening gets its `ended_at` then.
 */
export interface Finding {
  kind: IntelligenceKind;
  category: IntelligenceCategory;
  severity: IntelligenceSeverity;
  /** Human text: what changed from what to what, or what crossed which line. */
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Epoch ms when the thing started (for a close: when it ends). */
  at: number;
  opens?: string;
  closes?: string;
  /** Only ends the opened event; no event of its own (flapping stopped has no event type in the spec). */
  endOnly?: boolean;
}

/** A stored intelligence event (DECISIONS §13). */
export interface IntelligenceEvent {
  id: string;
  organizationId: string;
  monitorId: string;
  regionCode: string | null;
  category: IntelligenceCategory;
  kind: IntelligenceKind;
  severity: IntelligenceSeverity;
  summary: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  startedAt: number;
  endedAt: number | null;
  incidentId: string | null;
  createdAt: number;
}

export interface IntelligenceEventFilter {
  monitorId?: string;
  category?: IntelligenceCategory;
  kind?: IntelligenceKind;
  /** Events not ended before this time. */
  from?: number;
  /** Events started before this time. */
  to?: number;
}

export interface StoredGrade {
  kind: 'tls' | 'domain';
  grade: string;
  score: number;
  reasons: string[];
  notTested: string[];
  gradedAt: number;
}

/** A correlation as seen from one incident: the shared attribute and the other monitors failing with its monitor. */
export interface IncidentCorrelation {
  id: string;
  attribute: string;
  value: string;
  /** The other monitors of the correlation that the reader can see (the incident's own monitor left out). */
  otherMonitorIds: string[];
  summary: string;
  startedAt: number;
  lastSeenAt: number;
}

/** The part of an incident that decides which correlations it shows. */
export interface IncidentWindow {
  monitorId: string | null;
  openedAt: number;
  resolvedAt: number | null;
}

export interface StoredCorrelation {
  id: string;
  organizationId: string;
  attribute: string;
  value: string;
  monitorIds: string[];
  coverage: number;
  summary: string;
  startedAt: number;
  lastSeenAt: number;
}
