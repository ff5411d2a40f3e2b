import { isAdmin, type Actor } from '../auth/index.ts';
import type { CustomReport } from './custom-report.types.ts';

/**
 * Who owns what the actor creates: the user behind its key, or the service account owning it (a key always has
 * one of the two; the key id is the last resort so that the record still names who made it).
 */
export function ownerIdOf(actor: Actor): string {
  return actor.userId ?? actor.serviceAccountId ?? actor.keyId;
}

/**
 * Visibility (DECISIONS §8): `private` the owner only; `organization` every member; `shared` the owner and the
 * listed users. A service account's key acts as no person: it sees `organization` reports only.
 */
export function canSee(actor: Actor, report: CustomReport): boolean {
  if (actor.userId === null) return report.visibility === 'organization';
  if (report.ownerId === actor.userId) return true;
  if (report.visibility === 'organization') return true;
  return report.visibility === 'shared' && report.sharedWithUserIds.includes(actor.userId);
}

/** Changing and deleting: the owner, or an owner/admin of the organization, of a report they can see. */
export function canChange(actor: Actor, report: CustomReport): boolean {
  return canSee(actor, report) && (report.ownerId === ownerIdOf(actor) || isAdmin(actor));
}
