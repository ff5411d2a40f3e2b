import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigDocumentsService } from '../../modules/config-documents/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { actorOf } from './auth.plugin.ts';

/**
 * The routes that change a record a configuration document can manage (DECISIONS §19): its PATCH and DELETE, and a
 * monitor's pause and resume (`paused` is a field of the document). Actions that are not configuration (test a
 * destination, end a maintenance occurrence, run a report, mute a monitor) stay open.
 */
const CHANGES = new Set(
  [
    '/api/v1/monitors/:id',
    '/api/v1/auth/organization/webhooks/:id',
    '/api/v1/status-pages/:id',
    '/api/v1/maintenance-windows/:id',
    '/api/v1/sla-targets/:id',
    '/api/v1/scheduled-reports/:id',
    '/api/v1/custom-reports/:id',
  ].flatMap((url) => [`PATCH ${url}`, `DELETE ${url}`]),
);
CHANGES.add('POST /api/v1/monitors/:id/pause');
CHANGES.add('POST /api/v1/monitors/:id/resume');

/** The routes that answer records of a kind a document can manage (one record, or a page of them in `data`). */
const RECORD_ROUTES = new Set([
  '/api/v1/monitors',
  '/api/v1/monitors/:id',
  '/api/v1/monitors/:id/pause',
  '/api/v1/monitors/:id/resume',
  '/api/v1/auth/organization/webhooks',
  '/api/v1/auth/organization/webhooks/:id',
  '/api/v1/status-pages',
  '/api/v1/status-pages/:id',
  '/api/v1/maintenance-windows',
  '/api/v1/maintenance-windows/:id',
  '/api/v1/maintenance-windows/:id/end',
  '/api/v1/sla-targets',
  '/api/v1/sla-targets/:id',
  '/api/v1/scheduled-reports',
  '/api/v1/scheduled-reports/:id',
  '/api/v1/custom-reports',
  '/api/v1/custom-reports/:id',
]);

type RecordLike = Record<string, unknown> & { id?: unknown };

/** The records of an answer: the body itself, or its `data` list. */
function recordsOf(payload: unknown): RecordLike[] {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return [];
  const body = payload as RecordLike & { data?: unknown };
  if (typeof body.id === 'string') return [body];
  return Array.isArray(body.data)
    ? body.data.filter((r): r is RecordLike => typeof r === 'object' && r !== null && typeof r.id === 'string')
    : [];
}

/**
 * A change through the API (or the web app, which uses it) to a managed record answers 409 `managed_by_config`,
 * naming the key, so the document stays the one source of truth. Configuration apply calls the services directly.
 */
export function installManagedByConfig(app: FastifyInstance, deps: { configDocuments: ConfigDocumentsService }): void {
  const guard = async (request: FastifyRequest): Promise<void> => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    if (typeof id !== 'string') return;
    const actor = actorOf(request);
    const managed = await deps.configDocuments.managedKey(
      request.server.serviceContextSource.database,
      actor.organizationId,
      id,
    );
    if (!managed) return;
    throw new DomainError(
      'managed_by_config',
      `This item is managed by configuration as code (${managed.kind} key "${managed.key}"): change it in the ` +
        'document and apply it (docs/config-as-code.md).',
      [{ field: 'managed_by', issue: `config (${managed.kind} key "${managed.key}")` }],
    );
  };
  // Managed records say so (`managed_by: "config"`, `config_key`), in one read per answer. Attached to the record
  // routes only (below): as a global hook it cost every other response (a heartbeat ping's too) a promise and a
  // copy of the route's options to say no.
  const markManaged = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode >= 300 || !request.actor) return payload;
    const records = recordsOf(payload);
    if (records.length === 0) return payload;
    const keys = await deps.configDocuments.managedKeys(
      request.server.serviceContextSource.database,
      request.actor.organizationId,
      records.map((r) => r.id as string),
    );
    for (const record of records) {
      const key = keys.get(record.id as string);
      if (key !== undefined) Object.assign(record, { managed_by: 'config', config_key: key });
    }
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (RECORD_ROUTES.has(route.url)) {
      const serializing = route.preSerialization === undefined ? [] : [route.preSerialization].flat();
      route.preSerialization = [markManaged, ...serializing];
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => CHANGES.has(`${method} ${route.url}`))) return;
    const existing = route.preHandler === undefined ? [] : [route.preHandler].flat();
    route.preHandler = [guard, ...existing];
  });
}
