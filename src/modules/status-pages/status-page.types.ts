import type { Database } from '../../platform/db/index.ts';
import type { IncidentStatus } from '../incidents/index.ts';
import type { StatusSlaAchievement, StatusWindow } from '../reports/index.ts';
import type { PublicNoticeView } from './notice.types.ts';

export interface StatusPage {
  id: string;
  organizationId: string;
  /** Globally unique, lower-case letters, digits and hyphens, 3..64 characters. */
  slug: string;
  title: string;
  monitorIds: string[];
  public: boolean;
  /** Show the current period of each SLA target whose monitors are all on the page. */
  showSlaTargets: boolean;
  /** Whether other sites may show the public page in a frame (this app's own preview always may). */
  allowEmbedding: boolean;
  /** A monitor incident drafts an (unpublished) incident notice on the page (DECISIONS §18). */
  autoNotices: boolean;
  /**
   * Ordered groups of monitors (DECISIONS §18); `monitorIds` holds the ungrouped ones. A monitor is on the page at
   * most once, in a group or ungrouped: `pageMonitorIds` lists them all.
   */
  groups: StatusPageGroup[];
  /** Lower-case host name the page is served at (`/` of that Host), or null. Unique across pages. */
  customDomain: string | null;
  access: StatusPageAccess;
  /** scrypt hash of the page's password (never shown); required while `access` is `password`. */
  passwordHash: string | null;
  /** IANA zone of the times the public page shows. */
  timezone: string;
  /** Whether visitors may subscribe to the page's notices and maintenance (DECISIONS §18). */
  subscriptionsEnabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type StatusPageAccess = 'public' | 'password';

export interface StatusPageGroup {
  name: string;
  monitorIds: string[];
  /** Shown folded on the public page (its header still tells the group's worst state). */
  collapsed: boolean;
}

/** One day of uptime, as the storage module's RollupsService.dailyUptime returns it. */
export interface DayUptime {
  day: string;
  checks: number;
  failures: number;
  downtime_seconds: number;
  uptime_percent: number | null;
}

/** Port: daily uptime per monitor (wired to RollupsService.dailyUptime in src/main.ts). */
export interface UptimeSource {
  dailyUptime(monitorIds: string[], fromMs: number, toMs: number, timezone?: string): Promise<Map<string, DayUptime[]>>;
}

/**
 * One UTC day of a monitor on a public page: `uptime_percent` and the seconds come from the availability accounting
 * (the reports module's timeline: down from the first failing check of a confirmed outage, paused excluded);
 * `checks` and `failures` count the day's checks from the rollups.
 */
export interface PublicDay extends DayUptime {
  monitored_seconds: number;
  paused_seconds: number;
  /** Inside maintenance windows that exclude their time from the SLA: neither up nor down (DECISIONS §16). */
  maintenance_seconds: number;
}

/** Port: availability with the reports' accounting (wired to the reports module's StatusAvailability). */
export interface AvailabilitySource {
  of(input: {
    organizationId: string;
    monitorIds: readonly string[];
    now: number;
    days: number;
    withSlaTargets: boolean;
  }): Promise<{
    monitors: Map<
      string,
      {
        days: Array<{
          date: string;
          uptimePercent: number | null;
          downtimeSeconds: number;
          monitoredSeconds: number;
          pausedSeconds: number;
          maintenanceSeconds: number;
        }>;
        windows: Record<StatusWindow, number | null>;
      }
    >;
    slaTargets: StatusSlaAchievement[];
    /** When the failure that opened an incident began (null: not in the timeline read). */
    outageStart: (monitorId: string, openedAt: number) => number | null;
  }>;
}

/**
 * How a monitor shows on a public page: a down monitor is `degraded` (DECISIONS §9); a degraded one (DECISIONS §20:
 * slow, or failing in fewer regions than confirm_regions; not an outage) is `degraded_performance`.
 */
export type PublicMonitorStatus =
  'operational' | 'degraded' | 'degraded_performance' | 'paused' | 'pending' | 'maintenance';
export type OverallStatus = 'operational' | 'degraded' | 'degraded_performance';
/** The banner: no degraded monitor; some of the watched ones; all of them (paused and pending ones aside). */
export type OutageLevel = 'none' | 'partial' | 'major';

export interface PublicMonitorView {
  id: string;
  name: string;
  status: PublicMonitorStatus;
  /** Uptime over the last 90 days (= uptime.last_90_days); null when nothing was monitored. */
  uptimePercent: number | null;
  uptime: Record<StatusWindow, number | null>;
  days: PublicDay[];
  /** When the monitor was created and when its status last changed (summary.json's created_at and updated_at). */
  createdAt: number;
  statusChangedAt: number;
}

export interface PublicIncidentView {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  monitorId: string | null;
  openedAt: number;
  acknowledgedAt: number | null;
  /** When the failure began (the first failing check of the confirmed outage); openedAt when not known. */
  startedAt: number;
  resolvedAt: number | null;
}

export type PublicSlaView = StatusSlaAchievement;

export interface PublicMaintenanceView {
  id: string;
  name: string;
  description: string | null;
  startsAt: number;
  endsAt: number;
  inProgress: boolean;
  /** The page's monitors the window covers. */
  monitorIds: string[];
  /** When the window was created and last changed (summary.json's created_at, updated_at). */
  createdAt: number;
  updatedAt: number;
}

/** Port: maintenance windows announced on a page and the monitors in maintenance (the maintenance module fits). */
export interface StatusPageMaintenance {
  announcedOn(
    organizationId: string,
    statusPageId: string,
    now: number,
  ): Promise<
    Array<{
      window: {
        id: string;
        name: string;
        description: string | null;
        monitorIds: string[];
        tags: string[];
        createdAt: number;
        updatedAt: number;
      };
      occurrence: { start: number; end: number };
      inProgress: boolean;
    }>
  >;
  inMaintenance(
    db: Database,
    organizationId: string,
    monitors: ReadonlyArray<{ id: string; tags: string[] }>,
    t: number,
  ): Promise<Set<string>>;
}

/** A group on the public page: its monitors (those still there) and the worst state among them. */
export interface PublicGroupView {
  name: string;
  collapsed: boolean;
  monitorIds: string[];
  /** operational when empty. */
  status: PublicMonitorStatus;
}

export interface PublicStatusView {
  /** The page's id and last change (summary.json's page). */
  pageId: string;
  pageUpdatedAt: number;
  slug: string;
  title: string;
  /** The page's groups in order; `monitors` lists the grouped monitors first (group by group), then the others. */
  groups: PublicGroupView[];
  /** IANA zone of the times shown. */
  timezone: string;
  status: OverallStatus;
  outage: OutageLevel;
  generatedAt: number;
  days: number;
  monitors: PublicMonitorView[];
  /** Open incidents of the page's monitors, oldest first. */
  incidents: PublicIncidentView[];
  /** Resolved incidents of the page's monitors that were open in the last `days` days, newest first. */
  pastIncidents: PublicIncidentView[];
  /** Whether there were more past incidents than `pastIncidents` holds. */
  pastIncidentsTruncated: boolean;
  /** Empty unless the page shows its SLA targets. */
  slaTargets: PublicSlaView[];
  /** Maintenance announced on the page (DECISIONS §16): in progress, or upcoming within its announce time. */
  maintenance: PublicMaintenanceView[];
  /** Published notices (DECISIONS §18): open ones most severe first, and those resolved lately, newest first. */
  notices: { active: PublicNoticeView[]; past: PublicNoticeView[] };
  /** The page's setting, for the frame policy of the answer (not part of the page's content). */
  allowEmbedding: boolean;
  /** Whether the page shows its subscribe form. */
  subscriptionsEnabled: boolean;
}

/** Body of PATCH /status-pages/{id}, its shape checked by the route's schema. */
export interface StatusPageInput {
  slug?: string;
  title?: string;
  monitor_ids?: string[];
  public?: boolean;
  show_sla_targets?: boolean;
  allow_embedding?: boolean;
  auto_notices?: boolean;
  groups?: Array<{ name: string; monitor_ids: string[]; collapsed?: boolean }>;
  custom_domain?: string | null;
  access?: StatusPageAccess;
  /** Write-only; null removes it (then access must be public). */
  password?: string | null;
  timezone?: string;
  subscriptions_enabled?: boolean;
}

/** Body of POST /status-pages, its shape checked by the route's schema. */
export interface StatusPageCreateInput extends StatusPageInput {
  slug: string;
  title: string;
}
