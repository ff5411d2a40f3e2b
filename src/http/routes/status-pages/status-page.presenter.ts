import type {
  PublicIncidentView,
  PublicNoticeView,
  PublicStatusView,
  StatusPage,
} from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';

export function presentStatusPage(p: StatusPage, publicUrl: string): Record<string, unknown> {
  return {
    id: p.id,
    slug: p.slug,
    title: p.title,
    monitor_ids: p.monitorIds,
    public: p.public,
    show_sla_targets: p.showSlaTargets,
    allow_embedding: p.allowEmbedding,
    auto_notices: p.autoNotices,
    groups: p.groups.map((g) => ({ name: g.name, monitor_ids: g.monitorIds, collapsed: g.collapsed })),
    custom_domain: p.customDomain,
    access: p.access,
    password_set: p.passwordHash !== null,
    timezone: p.timezone,
    subscriptions_enabled: p.subscriptionsEnabled,
    url: `${publicUrl}/status/${p.slug}`,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
  };
}

export function presentPublicStatus(v: PublicStatusView): Record<string, unknown> {
  return {
    slug: v.slug,
    title: v.title,
    timezone: v.timezone,
    groups: v.groups.map((g) => ({
      name: g.name,
      collapsed: g.collapsed,
      monitor_ids: g.monitorIds,
      status: g.status,
    })),
    status: v.status,
    generated_at: toIso(v.generatedAt),
    monitors: v.monitors.map((m) => ({
      id: m.id,
      name: m.name,
      status: m.status,
      uptime_percent: m.uptimePercent,
      uptime: m.uptime,
      days: m.days,
    })),
    outage: v.outage,
    incidents: v.incidents.map((i) => presentIncident(i, v.generatedAt)),
    past_incidents: v.pastIncidents.map((i) => presentIncident(i, v.generatedAt)),
    past_incidents_truncated: v.pastIncidentsTruncated,
    maintenance: v.maintenance.map((w) => ({
      id: w.id,
      name: w.name,
      description: w.description,
      starts_at: toIso(w.startsAt),
      ends_at: toIso(w.endsAt),
      in_progress: w.inProgress,
      monitor_ids: w.monitorIds,
    })),
    notices: v.notices.active.map(presentPublicNotice),
    past_notices: v.notices.past.map(presentPublicNotice),
    sla_targets: v.slaTargets.map((t) => ({
      id: t.id,
      name: t.name,
      target_percent: t.targetPercent,
      period: t.period,
      monitor_ids: t.monitorIds,
      period_from: toIso(t.from),
      period_to: toIso(t.to),
      achieved_percent: t.achievedPercent,
      met: t.met,
      status: t.status,
      error_budget_used_percent: t.errorBudgetUsedPercent,
      error_budget_exhausted: t.errorBudgetExhausted,
      error_budget_remaining_percent: t.errorBudgetRemainingPercent,
    })),
  };
}

/** A published notice; its Markdown as written (the HTML page and the feeds render it safely). */
function presentPublicNotice(n: PublicNoticeView): Record<string, unknown> {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    impact: n.impact,
    status: n.status,
    affected_monitor_ids: n.affectedMonitorIds,
    published_at: toIso(n.publishedAt),
    resolved_at: n.resolvedAt === null ? null : toIso(n.resolvedAt),
    updated_at: toIso(n.updatedAt),
    updates: n.updates.map((u) => ({ id: u.id, status: u.status, body: u.body, created_at: toIso(u.createdAt) })),
    postmortem: n.postmortem,
    postmortem_published_at: n.postmortemPublishedAt === null ? null : toIso(n.postmortemPublishedAt),
  };
}

/** Public fields only: no cause, no acknowledger, no destination. */
function presentIncident(i: PublicIncidentView, now: number): Record<string, unknown> {
  return {
    id: i.id,
    number: i.number,
    title: i.title,
    status: i.status,
    monitor_id: i.monitorId,
    started_at: toIso(i.startedAt),
    opened_at: toIso(i.openedAt),
    resolved_at: i.resolvedAt === null ? null : toIso(i.resolvedAt),
    duration_seconds: ((i.resolvedAt ?? now) - i.startedAt) / 1000,
  };
}
