import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditLog, AuditTrail } from '../modules/audit/index.ts';
import { auditActorOf, type ServiceContext } from '../modules/auth/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/index.ts';
import type { ErrorDetail } from '../platform/errors.ts';
import { actorOf } from './plugins/auth.plugin.ts';
import { detailsFromAjv } from './plugins/validation.plugin.ts';

/** What every request's ServiceContext is built from, besides its actor. */
interface ContextSource {
  database: Database;
  clock: Clock;
  audit: AuditLog;
}

declare module 'fastify' {
  interface FastifyInstance {
    serviceContextSource: ContextSource;
  }
}

/** Keeps the app's database and clock where `contextOf` finds them (buildApp calls it once). */
export function installServiceContext(app: FastifyInstance, source: ContextSource): void {
  app.decorate('serviceContextSource', { database: source.database, clock: source.clock, audit: source.audit });
}

/** The ServiceContext of an authenticated request: its actor, the app's database and clock. */
export function contextOf(request: FastifyRequest): ServiceContext {
  const { database, clock } = request.server.serviceContextSource;
  return { actor: actorOf(request), db: database, clock, audit: auditOf(request) };
}

/** The audit recorder of an authenticated request: its actor, address and request id. */
export function auditOf(request: FastifyRequest): AuditTrail {
  return request.server.serviceContextSource.audit.trail({
    actor: auditActorOf(actorOf(request)),
    ip: request.ip,
    requestId: request.id,
  });
}

/**
 * The body's shape problems, for a route declared with `attachValidation: true`: its schema is the one check
 * of shape, and the service then adds the domain rules' findings for the fields whose shape is right, so one
 * 422 names every field at fault. A path or query string that fails its schema is answered at once.
 */
export function bodyShapeDetails(request: FastifyRequest): ErrorDetail[] {
  const error = request.validationError as (Error & { validation?: unknown; validationContext?: string }) | undefined;
  if (!error) return [];
  if (error.validationContext !== 'body' || !Array.isArray(error.validation)) throw error;
  return detailsFromAjv(error.validation as Parameters<typeof detailsFromAjv>[0]);
}
