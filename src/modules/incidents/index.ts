export {
  IncidentsService,
  formatDuration,
  type IncidentsServiceDeps,
  type IncidentMonitors,
  type IncidentInput,
  type IncidentWithDuration,
  type OpenedBucket,
  type OpenedCountQuery,
} from './incident.service.ts';
export { IncidentRemindersRole, type IncidentRemindersDeps } from './incident-reminders.role.ts';
export type { MaintenanceGate } from './incident.maintenance-gate.ts';
export { incidentsMigrations } from './incidents.migrations.ts';
export {
  dependenciesFromStatuses,
  type MonitorDependencies,
  type ParentState,
  type ParentCondition,
  type ChildState,
} from './incident.dependencies.ts';
export type { IncidentKey } from './incidents.repository.ts';
export {
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  TIMELINE_TYPES,
  durationSeconds,
  isHeld,
  outageStart,
  timeToAcknowledgeSeconds,
  timeToResolveSeconds,
  type MonitorTransition,
  type Incident,
  type IncidentSource,
  type IncidentStatus,
  type IncidentFilter,
  type IncidentWithTimeline,
  type TimelineEntry,
  type TimelineType,
} from './incident.types.ts';
