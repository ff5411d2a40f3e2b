import type { Database } from '../../platform/db/index.ts';
import { canSeeEnvironment, type Actor } from '../auth/index.ts';
import { maskConfig, type DestinationProvider, type DestinationType } from './destinations/index.ts';
import { AlertLinksRepository } from './alert-links.repository.ts';
import { SIGNING_SECRET, type DestinationSecrets } from './destination.secrets.ts';
import type { DestinationUsers, DestinationView, MonitorFactsOf } from './destination.inputs.ts';
import type { Destination } from './alerting.types.ts';

export interface DestinationViewsDeps {
  registry: ReadonlyMap<DestinationType, DestinationProvider>;
  secrets: DestinationSecrets;
  monitorFacts: MonitorFactsOf;
  /** Scheduled reports sending to destinations; absent in tests of alerting alone. */
  users?: DestinationUsers;
}

/**
 * Destinations as a caller sees them: secret fields masked, and `monitor_ids` read from the link rows, limited to the
 * monitors of the caller's environments (a key limited to staging never learns production monitor ids).
 */
export class DestinationViews {
  private readonly deps: DestinationViewsDeps;
  constructor(deps: DestinationViewsDeps) {
    this.deps = deps;
  }

  async one(db: Database, actor: Actor, destination: Destination): Promise<DestinationView> {
    const [view] = await this.many(db, actor, [destination]);
    return view!;
  }

  async many(db: Database, actor: Actor, destinations: readonly Destination[]): Promise<DestinationView[]> {
    const links = await new AlertLinksRepository(db).monitorIdsOf(
      actor.organizationId,
      destinations.map((d) => d.id),
    );
    const visible = await this.visibleMonitorIds(actor, [...links.values()].flat());
    return destinations.map((d) => ({
      destination: d,
      maskedConfig: this.maskedConfig(d),
      monitorIds: (links.get(d.id) ?? []).filter((id) => visible.has(id)),
    }));
  }

  /**
   * The ids among `destinationIds` that the actor may not see or change (DECISIONS §2: a key sees only its
   * environments): a destination that alerts a monitor outside the actor's environments, or receives a scheduled
   * report of one. Its URL, secrets and test sends would reach that environment's alerts and reports. A destination
   * that serves nothing yet is seen by every admin key.
   */
  async hiddenFrom(db: Database, actor: Actor, destinationIds: readonly string[]): Promise<Set<string>> {
    const hidden = new Set<string>();
    if (destinationIds.length === 0 || actor.allEnvironments === true) return hidden;
    const links = await new AlertLinksRepository(db).monitorIdsOf(actor.organizationId, destinationIds);
    const visible = await this.visibleMonitorIds(actor, [...links.values()].flat(), db);
    for (const [id, monitorIds] of links) if (monitorIds.some((m) => !visible.has(m))) hidden.add(id);
    const senders =
      (await this.deps.users?.environmentsOf(db, actor.organizationId, destinationIds)) ??
      new Map<string, string[][]>();
    for (const [id, environments] of senders)
      if (environments.some((list) => list.some((e) => !canSeeEnvironment(actor, e)))) hidden.add(id);
    return hidden;
  }

  /** The ids among `monitorIds` that are monitors of the actor's organization in one of its environments. */
  async visibleMonitorIds(actor: Actor, monitorIds: readonly string[], db?: Database): Promise<Set<string>> {
    if (monitorIds.length === 0) return new Set();
    const facts = await this.deps.monitorFacts([...new Set(monitorIds)], db);
    return new Set(
      facts
        .filter((m) => m.organizationId === actor.organizationId && canSeeEnvironment(actor, m.environment))
        .map((m) => m.id),
    );
  }

  private maskedConfig(d: Destination): Record<string, unknown> {
    const { [SIGNING_SECRET]: _signing, ...secret } = this.deps.secrets.open(d.id, d.sealedSecrets);
    const provider = this.deps.registry.get(d.type);
    if (!provider) throw new Error(`no provider for ${d.type}`);
    return maskConfig(provider, { ...d.config, ...secret });
  }
}
