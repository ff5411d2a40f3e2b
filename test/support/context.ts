import type { Actor, ServiceContext } from '../../src/modules/auth/index.ts';
import type { TestApp } from './app.ts';

/** The ServiceContext the HTTP layer would build for this actor on this app (database and clock). */
export function contextFor(t: TestApp, actor: Actor): ServiceContext {
  return { actor, db: t.tocsin.database, clock: t.tocsin.clock };
}
