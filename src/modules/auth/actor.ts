import type { PlanName } from '../../config/index.ts';
import type { AuditActor } from '../audit/index.ts';
import { isAdminRole, type Role } from '../orgs/index.ts';
import type { Scope } from './scopes.ts';

export interface RateBudgets {
  read: number;
  write: number;
  delete: number;
}

/** Who is calling: resolved once per request from the bearer key and passed to every domain verb. */
export interface Actor {
  organizationId: string;
  plan: PlanName;
  keyId: string;
  userId: string | null;
  serviceAccountId: string | null;
  role: Role;
  scopes: ReadonlySet<Scope>;
  environments: readonly string[];
  rateLimits: RateBudgets;
  /**
   * Set for a person signed in through the web app (a session, not a key): such an actor is bound by its role
   * instead of scopes, and sees every environment of the organization (`allEnvironments`).
   */
  sessionId?: string;
  /** Every environment, not only `environments` (sessions; keys always list theirs). */
  allEnvironments?: boolean;
  /** The name the audit log shows: the key's name, or the signed-in person's name or email. */
  name?: string;
}

export function canSeeEnvironment(actor: Actor, environment: string): boolean {
  return actor.allEnvironments === true || actor.environments.includes(environment);
}

export function isAdmin(actor: Actor): boolean {
  return isAdminRole(actor.role);
}

/** The id recorded when this actor changes something (resolved_by, acknowledged_by, created_by). */
export function actorRef(actor: Actor): string {
  return actor.userId ?? actor.keyId;
}

/** How the audit log names this actor: the signed-in person (sessions) or the key. */
export function auditActorOf(actor: Actor): AuditActor {
  return actor.sessionId !== undefined && actor.userId !== null
    ? { type: 'user', id: actor.userId, name: actor.name ?? actor.userId }
    : { type: 'key', id: actor.keyId, name: actor.name ?? actor.keyId };
}
