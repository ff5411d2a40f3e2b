import { DomainError } from './platform/errors.ts';
import type { AppServices } from './http/app.deps.ts';
import type { ConfigKindPort, ConfigKindPorts } from './modules/config-documents/index.ts';
import type { ServiceContext } from './modules/auth/index.ts';

/**
 * A kind's verbs for configuration apply. Bodies reach a verb as they reach it from its routes: checked by the route
 * schemas (the document schema is made of them, and apply's route checks it), then by the verb's own rules.
 */
function port<Input, Patch, Made>(
  verbs: {
    create(ctx: ServiceContext, input: Input): Promise<Made>;
    update(ctx: ServiceContext, id: string, patch: Patch): Promise<unknown>;
    delete(ctx: ServiceContext, id: string): Promise<void>;
    get(ctx: ServiceContext, id: string): Promise<unknown>;
  },
  idOf: (made: Made) => string,
  fixed: readonly string[] = [],
): ConfigKindPort {
  return {
    fixed,
    create: async (ctx, body) => idOf(await verbs.create(ctx, body as Input)),
    update: async (ctx, id, patch) => {
      await verbs.update(ctx, id, patch as Patch);
    },
    remove: (ctx, id) => verbs.delete(ctx, id),
    exists: async (ctx, id) => {
      try {
        await verbs.get(ctx, id);
        return true;
      } catch (err) {
        if (err instanceof DomainError && err.code === 'not_found') return false;
        throw err;
      }
    },
  };
}

/** How configuration apply changes each kind: through the same service verbs as the API (docs/config-as-code.md). */
export function configKindPorts(services: Omit<AppServices, 'configDocuments'>): ConfigKindPorts {
  const id = (made: { id: string }) => made.id;
  return {
    monitors: port(services.monitors, id, ['type']),
    destinations: port(services.alerting.destinations, (made) => made.destination.id, ['type']),
    status_pages: port(services.statusPages, id),
    maintenance_windows: port(services.maintenance, id),
    sla_targets: port(services.slaTargets, id),
    custom_reports: port(services.customReports, id),
    scheduled_reports: port(services.scheduledReports.service, id),
  };
}
