export {
  StatusPagesService,
  publicStatusOf,
  outageLevel,
  PAST_INCIDENTS_MAX,
  SLUG_PATTERN,
  UPTIME_DAYS,
  type StatusPagesServiceDeps,
  type StatusPageMonitors,
  type StatusPageIncidents,
} from './status-page.service.ts';
export { statusPagesMigrations } from './status-pages.migrations.ts';
export type {
  StatusPage,
  StatusPageCreateInput,
  StatusPageInput,
  UptimeSource,
  AvailabilitySource,
  PublicDay,
  OutageLevel,
  PublicSlaView,
  DayUptime,
  PublicMonitorStatus,
  OverallStatus,
  PublicMonitorView,
  PublicIncidentView,
  PublicStatusView,
} from './status-page.types.ts';
