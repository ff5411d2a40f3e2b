import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../modules/auth/index.ts';
import { SLUG_PATTERN } from '../../../modules/checks/index.ts';
import type { Monitor } from '../../../modules/monitors/index.ts';
import { DomainError } from '../../../platform/errors.ts';
import type { AppServices } from '../../app.deps.ts';

/** The heartbeat monitor a ping key and slug name, or null: an unknown key and an unknown slug look the same. */
export async function monitorOfSlug(services: AppServices, pingKey: string, slug: string): Promise<Monitor | null> {
  const org = await services.checks.heartbeatKeys.organizationOfKey(pingKey);
  if (!org) return null;
  const id = await services.checks.heartbeatKeys.monitorOfSlug(org.organizationId, slug);
  if (!id) return null;
  const [monitor] = await services.monitors.findManyAnywhere([id]);
  return monitor && monitor.type === 'heartbeat' && monitor.organizationId === org.organizationId ? monitor : null;
}

/**
 * `?create=1`: the monitor a first ping names, made when the key's organization allows it (then a heartbeat due
 * every day, named and slugged after the slug, audited as made by the ping key). Null otherwise (the caller's 404).
 */
export async function createdByPing(
  services: AppServices,
  request: FastifyRequest,
  params: { ping_key: string; slug: string },
): Promise<Monitor | null> {
  const org = await services.checks.heartbeatKeys.organizationOfKey(params.ping_key);
  if (!org || !org.autoCreate || !SLUG_PATTERN.test(params.slug)) return null;
  const { plan } = await services.orgs.getOrganization(org.organizationId);
  const actor: Actor = {
    organizationId: org.organizationId,
    plan,
    keyId: 'ping-key',
    userId: null,
    serviceAccountId: null,
    role: 'admin',
    scopes: new Set(['monitors:write']),
    environments: ['production'],
    rateLimits: { read: 0, write: 0, delete: 0 },
    name: 'heartbeat ping key',
  };
  const { database, clock, audit } = request.server.serviceContextSource;
  const ctx = {
    actor,
    db: database,
    clock,
    audit: audit.trail({
      actor: { type: 'system', id: null, name: 'heartbeat ping key (create=1)' },
      ip: request.ip,
      requestId: request.id,
    }),
  };
  try {
    return await services.monitors.create(ctx, {
      type: 'heartbeat',
      name: params.slug,
      config: { slug: params.slug, schedule: { every_seconds: 86_400 } },
    });
  } catch (error) {
    // Two first pings at once: the other one made it.
    if (error instanceof DomainError && error.code === 'validation_failed') {
      return monitorOfSlug(services, params.ping_key, params.slug);
    }
    throw error;
  }
}
