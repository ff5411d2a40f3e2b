export {
  MaintenanceService,
  covers,
  type MaintenanceServiceDeps,
  type MaintenanceMonitors,
  type MaintenanceStatusPages,
  type WindowInput,
  type WindowPatch,
  type WindowView,
  type CoveredMonitor,
} from './maintenance-window.service.ts';
export { MaintenanceAlertGate } from './maintenance.gate.ts';
export {
  MaintenanceEventsRole,
  type MaintenanceEventsDeps,
  type MaintenanceIncidents,
} from './maintenance-events.role.ts';
export { maintenanceMigrations } from './maintenance.migrations.ts';
export { occurrencesBetween, occurrenceAt, nextOccurrence } from './maintenance.occurrences.ts';
export { parseRrule, MAX_COUNT } from './maintenance.rrule.ts';
export { scheduleView, isTimeZone, type ScheduleInput } from './maintenance.validation.ts';
export type { MaintenanceWindow, MaintenanceSchedule, Occurrence } from './maintenance.types.ts';
