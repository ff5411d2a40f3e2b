import type { PlanName } from '../../config/index.ts';
import type { Role } from '../orgs/index.ts';
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
}

export function canSeeEnvironment(actor: Actor, environment: string): boolean {
  return actor.environments.includes(environment);
}

export function isAdmin(actor: Actor): boolean {
  return actor.role === 'owner' || actor.role === 'admin';
}

/** The id recorded when this actor changes something (resolved_by, acknowledged_by, created_by). */
export function actorRef(actor: Actor): string {
  return actor.userId ?? actor.keyId;
}
