import type { PlanLimits, PlanName } from './config.types.ts';

export const DEFAULT_PLANS: Record<PlanName, PlanLimits> = {
  free: { monitors: 10, interval_floor_seconds: 60, regions: 1, status_pages: 1, reports: false, api: false },
  pro: { monitors: 50, interval_floor_seconds: 30, regions: 3, status_pages: 5, reports: true, api: false },
  team: { monitors: 250, interval_floor_seconds: 15, regions: null, status_pages: 20, reports: true, api: true },
  enterprise: {
    monitors: null,
    interval_floor_seconds: 10,
    regions: null,
    status_pages: null,
    reports: true,
    api: true,
  },
};
