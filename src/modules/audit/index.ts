export { AuditLog, AUDIT_CSV_HEADER, type AuditLogDeps } from './audit.service.ts';
export { auditMigrations } from './audit.migrations.ts';
export { diffViews, maskValue, resourceChange } from './audit.changes.ts';
export {
  AUDIT_ACTOR_TYPES,
  type AuditActor,
  type AuditActorType,
  type AuditChange,
  type AuditChanges,
  type AuditEntry,
  type AuditFilter,
  type AuditOrigin,
  type AuditTarget,
  type AuditTrail,
} from './audit.types.ts';
