import type { Database } from '../../platform/db/index.ts';
import type { IncidentStatus } from '../incidents/index.ts';
import type { StatusSlaAchievement, StatusWindow } from '../reports/index.ts';

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
  createdAt: number;
  updatedAt: number;
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
        }>;
        windows: Record<StatusWindow, number | null>;
      }
    >;
    slaTargets: StatusSlaAchievement[];
    /** When the failure that opened an incident began (null: not in the timeline read). */
    outageStart: (monitorId: string, openedAt: number) => number | null;
  }>;
}

/** How a monitor shows on a public page: a down monitor is `degraded`. */
export type PublicMonitorStatus = 'operational' | 'degraded' | 'paused' | 'pending' | 'maintenance';
export type OverallStatus = 'operational' | 'degraded';
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
}

export interface PublicIncidentView {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  monitorId: string | null;
  openedAt: number;
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
}

/** Port: maintenance windows announced on a page and the monitors in maintenance (the maintenance module fits). */
export interface StatusPageMaintenance {
  announcedOn(
    organizationId: string,
    statusPageId: string,
    now: number,
  ): Promise<
    Array<{
      window: { id: string; name: string; description: string | null; monitorIds: string[]; tags: string[] };
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

export interface PublicStatusView {
  slug: string;
  title: string;
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
  /** The page's setting, for the frame policy of the answer (not part of the page's content). */
  allowEmbedding: boolean;
}

/** Body of PATCH /status-pages/{id}, its shape checked by the route's schema. */
export interface StatusPageInput {
  slug?: string;
  title?: string;
  monitor_ids?: string[];
  public?: boolean;
  show_sla_targets?: boolean;
  allow_embedding?: boolean;
}

/** Body of POST /status-pages, its shape checked by the route's schema. */
export interface StatusPageCreateInput extends StatusPageInput {
  slug: string;
  title: string;
}
