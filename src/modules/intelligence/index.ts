export {
  IntelligenceService,
  DEFAULT_INTELLIGENCE_SETTINGS,
  type IntelligenceCheck,
  type IntelligenceIncidents,
  type IntelligenceMonitors,
  type IntelligenceServiceDeps,
  type IntelligenceSettings,
} from './intelligence.service.ts';
export { intelligenceMigrations } from './intelligence.migrations.ts';
export {
  INTELLIGENCE_CATEGORIES,
  INTELLIGENCE_KINDS,
  INTELLIGENCE_SEVERITIES,
  type IncidentCorrelation,
  type IncidentWindow,
  type IntelligenceCategory,
  type IntelligenceEvent,
  type IntelligenceEventFilter,
  type IntelligenceKind,
  type IntelligenceSeverity,
  type StoredCorrelation,
  type StoredGrade,
} from './intelligence.types.ts';
export { contentDigest, compileIgnorePatterns } from './observation.normalise.ts';
export { SecurityGradesRole, type SecurityGradesDeps, type GradedMonitor } from './security-grades.role.ts';
