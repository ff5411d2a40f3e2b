import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
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
}

/** The same context bound to a transaction handle (for the reactions a verb runs inside its transaction). */
export function withDatabase(ctx: ServiceContext, db: Database): ServiceContext {
  return { actor: ctx.actor, db, clock: ctx.clock };
}
