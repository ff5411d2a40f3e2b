import type { PublicStatusView, StatusPage } from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';

export function presentStatusPage(p: StatusPage, publicUrl: string): Record<string, unknown> {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    monitor_ids: p.monitorIds,
    public: p.public,
    url: `${publicUrl}/status/${p.slug}`,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
  };
}

export function presentPublicStatus(v: PublicStatusView): Record<string, unknown> {
  return {
    slug: v.slug,
    title: v.title,
    status: v.status,
    generated_at: toIso(v.generatedAt),
    monitors: v.monitors.map((m) => ({
      id: m.id,
      name: m.name,
      status: m.status,
      uptime_percent: m.uptimePercent,
      days: m.days,
    })),
    incidents: v.incidents.map((i) => ({
      id: i.id,
      number: i.number,
      title: i.title,
      status: i.status,
      monitor_id: i.monitorId,
      opened_at: toIso(i.openedAt),
    })),
  };
}
