import type { IntelligenceEvent, StoredCorrelation, StoredGrade } from '../../../modules/intelligence/index.ts';
import { toIso, toIsoOrNull } from '../../../platform/clock.ts';

export function presentIntelligenceEvent(e: IntelligenceEvent): Record<string, unknown> {
  return {
    id: e.id,
    monitor_id: e.monitorId,
    region_code: e.regionCode,
    category: e.category,
    kind: e.kind,
    severity: e.severity,
    summary: e.summary,
    before: e.before,
    after: e.after,
    started_at: toIso(e.startedAt),
    ended_at: toIsoOrNull(e.endedAt),
    incident_id: e.incidentId,
    created_at: toIso(e.createdAt),
  };
}

export function presentGrade(g: StoredGrade): Record<string, unknown> {
  return {
    kind: g.kind,
    grade: g.grade,
    score: g.score,
    reasons: g.reasons,
    not_tested: g.notTested,
    graded_at: toIso(g.gradedAt),
  };
}

export function presentCorrelation(c: StoredCorrelation): Record<string, unknown> {
  return {
    id: c.id,
    attribute: c.attribute,
    value: c.value,
    monitor_ids: c.monitorIds,
    coverage: c.coverage,
    summary: c.summary,
    started_at: toIso(c.startedAt),
    last_seen_at: toIso(c.lastSeenAt),
  };
}
