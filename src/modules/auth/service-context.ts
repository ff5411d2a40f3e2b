import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { AuditTrail } from '../audit/index.ts';
import type { Actor } from './actor.ts';

/**
 * What every domain verb works with: who acts, the database handle to write through, and the clock.
 * A verb opens its work with `ctx.db.transaction(...)`; when the caller already holds a transaction the
 * nested call joins it, so a change that spans modules commits or rolls back as one.
 */
export interface ServiceContext {
  readonly actor: Actor;
  readonly db: Database;
  readonly clock: Clock;
  /**
   * The audit log's recorder for this origin (request, CLI command, config apply): a verb records its change with
   * `ctx.audit?.record(tx, …)` on its own transaction handle. Absent only for internal work that changes nothing
   * a person asked for (tests of one module, the check engine).
   */
  readonly audit?: AuditTrail | undefined;
}

/** The same context bound to a transaction handle (for the reactions a verb runs inside its transaction). */
export function withDatabase(ctx: ServiceContext, db: Database): ServiceContext {
  return { actor: ctx.actor, db, clock: ctx.clock, audit: ctx.audit };
}
