import type { IncidentStatus } from '../incidents/index.ts';

export interface StatusPage {
  id: string;
  organizationId: string;
  /** Globally unique, lower-case letters, digits and hyphens, 3..64 characters. */
  slug: string;
  title: string;
  monitorIds: string[];
  public: boolean;
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

/** How a monitor shows on a public page: a down monitor is `degraded`. */
export type PublicMonitorStatus = 'operational' | 'degraded' | 'paused' | 'pending';
export type OverallStatus = 'operational' | 'degraded';

export interface PublicMonitorView {
  id: string;
  name: string;
  status: PublicMonitorStatus;
  /** Uptime over the days with data in the window; null when there is none. */
  uptimePercent: number | null;
  days: DayUptime[];
}

export interface PublicIncidentView {
  id: string;
  number: number;
  title: string;
  status: IncidentStatus;
  monitorId: string | null;
  openedAt: number;
}

export interface PublicStatusView {
  slug: string;
  title: string;
  status: OverallStatus;
  generatedAt: number;
  days: number;
  monitors: PublicMonitorView[];
  incidents: PublicIncidentView[];
}

/** Body of PATCH /status-pages/{id}, its shape checked by the route's schema. */
export interface StatusPageInput {
  slug?: string;
  title?: string;
  monitor_ids?: string[];
  public?: boolean;
}

/** Body of POST /status-pages, its shape checked by the route's schema. */
export interface StatusPageCreateInput extends StatusPageInput {
  slug: string;
  title: string;
}
