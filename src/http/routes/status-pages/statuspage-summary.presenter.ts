/**
 * The public page in Atlassian Statuspage's v2 shape (`/api/v2/summary.json`, `status.json`, `components.json`), so
 * widgets and integrations written for Statuspage read a Tocsin page as they are. The shape is Statuspage's
 * published one (its API page on every hosted status page, e.g. https://status.chargebee.com/api); the test
 * (test/status-pages/statuspage-summary.test.ts) checks the answers against a JSON Schema written from it.
 */
import type {
  PublicIncidentView,
  PublicMaintenanceView,
  PublicMonitorStatus,
  PublicMonitorView,
  PublicStatusView,
} from '../../../modules/status-pages/index.ts';
import { toIso } from '../../../platform/clock.ts';

export type ComponentStatus =
  'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';
export type Indicator = 'none' | 'minor' | 'major' | 'critical';
export type Impact = Indicator | 'maintenance';

export interface StatuspagePage {
  id: string;
  name: string;
  url: string;
  time_zone: string;
  updated_at: string;
}

export interface StatuspageComponent {
  id: string;
  name: string;
  status: ComponentStatus;
  created_at: string;
  updated_at: string;
  position: number;
  description: string | null;
  showcase: boolean;
  start_date: string | null;
  group_id: string | null;
  page_id: string;
  group: boolean;
  only_show_if_degraded: boolean;
}

export interface StatuspageAffectedComponent {
  code: string;
  name: string;
  old_status: ComponentStatus;
  new_status: ComponentStatus;
}

export interface StatuspageIncidentUpdate {
  id: string;
  status: string;
  body: string;
  incident_id: string;
  created_at: string;
  updated_at: string;
  display_at: string;
  affected_components: StatuspageAffectedComponent[] | null;
  deliver_notifications: boolean;
  custom_tweet: string | null;
  tweet_id: string | null;
}

export interface StatuspageIncident {
  id: string;
  name: string;
  status: string;
  created_at: string;
  updated_at: string;
  monitoring_at: string | null;
  resolved_at: string | null;
  impact: Impact;
  shortlink: string;
  started_at: string;
  page_id: string;
  incident_updates: StatuspageIncidentUpdate[];
  components: StatuspageComponent[];
}

export interface StatuspageMaintenance extends StatuspageIncident {
  scheduled_for: string;
  scheduled_until: string;
}

export interface StatuspageSummary {
  page: StatuspagePage;
  status: { indicator: Indicator; description: string };
  components: StatuspageComponent[];
  incidents: StatuspageIncident[];
  scheduled_maintenances: StatuspageMaintenance[];
}

/** What the presenter needs besides the view: where the page is served. */
export interface StatuspageContext {
  pageUrl: string;
}

/**
 * The source of summary.json's unresolved incidents. Until status-page notices exist, the page's open Tocsin
 * incidents (`openIncidentsAsStatuspage`); notices replace this one function.
 */
export type SummaryIncidentSource = (view: PublicStatusView, context: StatuspageContext) => StatuspageIncident[];

/**
 * A down monitor is an outage of that component; a degraded one (DECISIONS §20) has degraded performance. Statuspage has no
 * paused or unknown component: a paused monitor and one awaiting its first check are not counted as out, as on
 * Tocsin's own page, and say so in `description`.
 */
const COMPONENT_STATUS: Record<PublicMonitorStatus, ComponentStatus> = {
  operational: 'operational',
  degraded: 'major_outage',
  degraded_performance: 'degraded_performance',
  maintenance: 'under_maintenance',
  paused: 'operational',
  pending: 'operational',
};
const COMPONENT_NOTE: Partial<Record<PublicMonitorStatus, string>> = {
  paused: 'Monitoring is paused.',
  pending: 'Awaiting the first check.',
};

export function componentOf(m: PublicMonitorView, index: number, pageId: string): StatuspageComponent {
  return {
    id: m.id,
    name: m.name,
    status: COMPONENT_STATUS[m.status],
    created_at: toIso(m.createdAt),
    updated_at: toIso(Math.max(m.createdAt, m.statusChangedAt)),
    position: index + 1,
    description: COMPONENT_NOTE[m.status] ?? null,
    showcase: true,
    start_date: toIso(m.createdAt).slice(0, 10),
    group_id: null,
    page_id: pageId,
    group: false,
    only_show_if_degraded: false,
  };
}

function componentsOf(view: PublicStatusView): StatuspageComponent[] {
  return view.monitors.map((m, i) => componentOf(m, i, view.pageId));
}

function update(
  incidentId: string,
  status: string,
  body: string,
  at: number,
  affected: StatuspageAffectedComponent[] | null,
): StatuspageIncidentUpdate {
  return {
    id: `${incidentId}-${status}`,
    status,
    body,
    incident_id: incidentId,
    created_at: toIso(at),
    updated_at: toIso(at),
    display_at: toIso(at),
    affected_components: affected,
    deliver_notifications: false,
    custom_tweet: null,
    tweet_id: null,
  };
}

/** An open monitor incident as a Statuspage incident: investigating, then identified once acknowledged. */
function incidentOf(i: PublicIncidentView, view: PublicStatusView, context: StatuspageContext): StatuspageIncident {
  const index = view.monitors.findIndex((m) => m.id === i.monitorId);
  const component = index < 0 ? null : componentOf(view.monitors[index]!, index, view.pageId);
  const affected = component
    ? [
        {
          code: component.id,
          name: component.name,
          old_status: 'operational' as const,
          new_status: 'major_outage' as const,
        },
      ]
    : null;
  const what = component ? component.name : 'a service on this page';
  const updates = [
    update(i.id, 'investigating', `We are investigating a problem with ${what}.`, i.startedAt, affected),
  ];
  if (i.acknowledgedAt !== null)
    updates.unshift(update(i.id, 'identified', `The problem with ${what} is being worked on.`, i.acknowledgedAt, null));
  return {
    id: i.id,
    name: i.title,
    status: i.acknowledgedAt !== null ? 'identified' : 'investigating',
    created_at: toIso(i.openedAt),
    updated_at: toIso(i.acknowledgedAt ?? i.openedAt),
    monitoring_at: null,
    resolved_at: null,
    impact: 'major',
    shortlink: context.pageUrl,
    started_at: toIso(i.startedAt),
    page_id: view.pageId,
    incident_updates: updates,
    components: component ? [component] : [],
  };
}

/** The default source: the open incidents of the page's monitors. */
export const openIncidentsAsStatuspage: SummaryIncidentSource = (view, context) =>
  view.incidents.map((i) => incidentOf(i, view, context));

function maintenanceOf(
  w: PublicMaintenanceView,
  view: PublicStatusView,
  context: StatuspageContext,
): StatuspageMaintenance {
  const status = w.inProgress ? 'in_progress' : 'scheduled';
  const components = view.monitors
    .map((m, i) => ({ m, i }))
    .filter(({ m }) => w.monitorIds.includes(m.id))
    .map(({ m, i }) => componentOf(m, i, view.pageId));
  const at = w.inProgress ? w.startsAt : w.updatedAt;
  return {
    id: w.id,
    name: w.name,
    status,
    created_at: toIso(w.createdAt),
    updated_at: toIso(Math.max(w.updatedAt, w.inProgress ? w.startsAt : 0)),
    monitoring_at: null,
    resolved_at: null,
    impact: 'maintenance',
    shortlink: context.pageUrl,
    started_at: toIso(w.startsAt),
    page_id: view.pageId,
    incident_updates: [
      update(
        w.id,
        status,
        w.description ?? (w.inProgress ? 'Maintenance is in progress.' : 'Maintenance is scheduled.'),
        at,
        null,
      ),
    ],
    components,
    scheduled_for: toIso(w.startsAt),
    scheduled_until: toIso(w.endsAt),
  };
}

const RANK: Record<Indicator, number> = { none: 0, minor: 1, major: 2, critical: 3 };
const DESCRIPTION: Record<Indicator, string> = {
  none: 'All Systems Operational',
  minor: 'Minor Service Outage',
  major: 'Partial System Outage',
  critical: 'Major System Outage',
};

/**
 * The page's indicator as Statuspage blends it: the worse of the components (some out: major; every watched one
 * out: critical) and the impact of the unresolved incidents.
 */
export function statusOf(
  view: PublicStatusView,
  incidents: readonly StatuspageIncident[],
): StatuspageSummary['status'] {
  let indicator: Indicator = view.outage === 'major' ? 'critical' : view.outage === 'partial' ? 'major' : 'none';
  for (const i of incidents) {
    if (i.impact !== 'maintenance' && RANK[i.impact] > RANK[indicator]) indicator = i.impact;
  }
  if (indicator === 'none' && view.monitors.some((m) => m.status === 'degraded_performance'))
    return { indicator: 'minor', description: 'Partially Degraded Service' };
  if (indicator === 'none' && view.monitors.some((m) => m.status === 'maintenance'))
    return { indicator, description: 'Service Under Maintenance' };
  return { indicator, description: DESCRIPTION[indicator] };
}

function pageOf(view: PublicStatusView, context: StatuspageContext, components: StatuspageComponent[]): StatuspagePage {
  const latest = Math.max(view.pageUpdatedAt, ...components.map((c) => Date.parse(c.updated_at)));
  return { id: view.pageId, name: view.title, url: context.pageUrl, time_zone: 'Etc/UTC', updated_at: toIso(latest) };
}

export function presentSummary(
  view: PublicStatusView,
  context: StatuspageContext,
  incidentsOf: SummaryIncidentSource,
): StatuspageSummary {
  const components = componentsOf(view);
  const incidents = incidentsOf(view, context);
  return {
    page: pageOf(view, context, components),
    status: statusOf(view, incidents),
    components,
    incidents,
    scheduled_maintenances: view.maintenance.map((w) => maintenanceOf(w, view, context)),
  };
}
