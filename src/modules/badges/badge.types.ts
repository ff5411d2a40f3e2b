import type { Database } from '../../platform/db/index.ts';

/** A monitor's badge: `token` is the capability in its public URLs; `id` names it in the audit log. */
export interface MonitorBadge {
  id: string;
  organizationId: string;
  monitorId: string;
  token: string;
  createdAt: number;
}

/** The three monitor badges (DECISIONS §18). */
export const BADGE_KINDS = ['status', 'uptime', 'response-time'] as const;
export type BadgeKind = (typeof BADGE_KINDS)[number];

/** shields.io's named colours (https://shields.io/badges/static-badge); the SVG renderer maps them to hex. */
export type BadgeColor = 'brightgreen' | 'green' | 'yellowgreen' | 'yellow' | 'orange' | 'red' | 'blue' | 'lightgrey';

/** What a badge says: the left text, the right text and the right side's colour. */
export interface BadgeFace {
  label: string;
  message: string;
  color: BadgeColor;
}

/** Uptime badges cover the last `days` × 24 h: 1 to 365 (default 30). */
export const UPTIME_BADGE_DAYS = { min: 1, max: 365, default: 30 } as const;
/** Response-time badges show the median of the successful checks of the last 24 hours. */
export const RESPONSE_TIME_WINDOW_MS = 86_400_000;

/** Ports wired in src/main.ts: uptime with the reports' accounting, latency from the rollups, maintenance. */
export interface BadgeMetrics {
  /** Uptime percent of the monitor in [from, to) as the availability report counts it; null: nothing monitored. */
  uptimePercent(monitorId: string, from: number, to: number): Promise<number | null>;
  /** Median response time (ms) of the successful checks in [from, to); null: none. */
  medianResponseMs(monitorId: string, from: number, to: number): Promise<number | null>;
  /** Whether a maintenance window covers the monitor at `t`. */
  inMaintenance(
    db: Database,
    organizationId: string,
    monitor: { id: string; tags: string[] },
    t: number,
  ): Promise<boolean>;
}
