import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../modules/auth/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/index.ts';
import { actorOf } from './plugins/auth.plugin.ts';

/** What every request's ServiceContext is built from, besides its actor. */
interface ContextSource {
  database: Database;
  clock: Clock;
}

declare module 'fastify' {
  interface FastifyInstance {
    serviceContextSource: ContextSource;
  }
}

/** Keeps the app's database and clock where `contextOf` finds them (buildApp calls it once). */
export function installServiceContext(app: FastifyInstance, source: ContextSource): void {
  app.decorate('serviceContextSource', { database: source.database, clock: source.clock });
}

/** The ServiceContext of an authenticated request: its actor, the app's database and clock. */
export function contextOf(request: FastifyRequest): ServiceContext {
  const { database, clock } = request.server.serviceContextSource;
  return { actor: actorOf(request), db: database, clock };
}
