import type { NoticeWithUpdates } from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

export function presentNotice(n: NoticeWithUpdates): Record<string, unknown> {
  return {
    id: n.id,
    status_page_id: n.statusPageId,
    kind: n.kind,
    title: n.title,
    impact: n.impact,
    status: n.status,
    affected_monitor_ids: n.affectedMonitorIds,
    incident_id: n.incidentId,
    published: n.published,
    published_at: isoOrNull(n.publishedAt),
    resolved_at: isoOrNull(n.resolvedAt),
    updates: n.updates.map((u) => ({ id: u.id, status: u.status, body: u.body, created_at: toIso(u.createdAt) })),
    postmortem: n.postmortem,
    postmortem_published_at: isoOrNull(n.postmortemPublishedAt),
    automatic: n.automatic,
    created_at: toIso(n.createdAt),
    updated_at: toIso(n.updatedAt),
  };
}
