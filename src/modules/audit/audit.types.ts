import type { Database } from '../../platform/db/index.ts';

export const AUDIT_ACTOR_TYPES = ['user', 'key', 'config', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** Who made a change, as recorded at the time (the name stays as it was even if the user or key is renamed). */
export interface AuditActor {
  type: AuditActorType;
  id: string | null;
  name: string;
}

export interface AuditTarget {
  type: string;
  id: string | null;
}

/** Field → [before, after]; a field absent before or after is null on that side. Secrets are masked. */
export type AuditChanges = Record<string, [unknown, unknown]>;

/** One stored entry, as `GET /audit-log` lists it. */
export interface AuditEntry {
  id: string;
  organizationId: string | null;
  at: number;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  changes: AuditChanges;
  ip: string | null;
  requestId: string | null;
}

/** Where a change comes from: the actor and, for an HTTP request, its address and request id. */
export interface AuditOrigin {
  actor: AuditActor;
  ip: string | null;
  requestId: string | null;
}

/**
 * What a verb says about its change. `before`/`after` are the resource's views (null when created or deleted);
 * `changes` is computed from them field by field (diffViews), unless given directly (e.g. a sign-in's email).
 */
export interface AuditChange {
  organizationId: string | null;
  action: string;
  target: AuditTarget;
  before?: object | null;
  after?: object | null;
  changes?: AuditChanges;
  /** Field names whose values are secret in this resource, masked whatever their name. */
  secretFields?: readonly string[];
}

/**
 * The recorder a ServiceContext carries: bound to one origin (a request, a CLI command, a config apply), it writes
 * the entry through `db`, the verb's own transaction handle, so the entry commits or rolls back with the change.
 */
export interface AuditTrail {
  readonly origin: AuditOrigin;
  record(db: Database, change: AuditChange): Promise<void>;
  /**
   * For an action that writes nothing else a transaction could hold (a test message sent, a mail sent again):
   * the entry alone, in its own transaction.
   */
  note(change: AuditChange): Promise<void>;
}

export interface AuditFilter {
  actorId?: string | undefined;
  action?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}
