import type { Clock } from '../../../platform/clock.ts';
import type { Database } from '../../../platform/db/index.ts';
import { DomainError, validationFailed } from '../../../platform/errors.ts';
import { randomToken } from '../../../platform/ids.ts';
import { isAdmin, type ServiceContext } from '../../auth/index.ts';
import type { Monitor, MonitorListener } from '../../monitors/index.ts';
import { HeartbeatKeysRepository } from './heartbeat-keys.repository.ts';
import { HeartbeatsRepository } from './heartbeats.repository.ts';

export interface HeartbeatSettings {
  pingKey: string | null;
  autoCreate: boolean;
}

/** A slug: what `/api/v1/ping/{ping_key}/{slug}` names a heartbeat monitor by. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;

/**
 * An organization's ping key (one secret for all its heartbeat monitors, each named by its slug) and whether a
 * ping with `?create=1` may create the monitor it names.
 */
export class HeartbeatKeysService {
  private readonly deps: { database: Database; clock: Clock };
  constructor(deps: { database: Database; clock: Clock }) {
    this.deps = deps;
  }

  settings(organizationId: string): Promise<HeartbeatSettings> {
    return new HeartbeatKeysRepository(this.deps.database).settings(organizationId);
  }

  /** Sets what `change` names; `ping_key: 'rotate'` makes a new key (the old one stops at once), null removes it. */
  async update(
    ctx: ServiceContext,
    change: { autoCreate?: boolean; pingKey?: 'rotate' | null },
  ): Promise<HeartbeatSettings> {
    const { actor, audit } = ctx;
    if (!isAdmin(actor)) {
      throw new DomainError('forbidden', 'Heartbeat settings are for the organization owner or an admin.');
    }
    const { organizationId } = actor;
    return this.deps.database.transaction(async (tx) => {
      const repository = new HeartbeatKeysRepository(tx);
      const before = await repository.settings(organizationId);
      const after: HeartbeatSettings = {
        pingKey: change.pingKey === undefined ? before.pingKey : change.pingKey && randomToken(18),
        autoCreate: change.autoCreate ?? before.autoCreate,
      };
      await repository.saveSettings(organizationId, after.pingKey, after.autoCreate, this.deps.clock.now());
      const view = (s: HeartbeatSettings) => ({ ping_key: s.pingKey, heartbeat_auto_create: s.autoCreate });
      await audit?.record(tx, {
        organizationId,
        action: change.pingKey === 'rotate' ? 'heartbeat_settings.rotate_ping_key' : 'heartbeat_settings.update',
        target: { type: 'organization', id: organizationId },
        before: view(before),
        after: view(after),
        secretFields: ['ping_key'],
      });
      return after;
    });
  }

  /** The organization of a ping key, or null (an unknown key is the same 404 as an unknown slug). */
  organizationOfKey(pingKey: string): Promise<{ organizationId: string; autoCreate: boolean } | null> {
    return new HeartbeatKeysRepository(this.deps.database).organizationOfKey(pingKey);
  }

  monitorOfSlug(organizationId: string, slug: string): Promise<string | null> {
    return new HeartbeatKeysRepository(this.deps.database).monitorOfSlug(organizationId, slug);
  }

  /**
   * Keeps the slug index in step with heartbeat monitors' `config.slug` (in the save's transaction: a slug another
   * monitor of the organization holds refuses the save) and drops a deleted monitor's pings.
   */
  listener(): MonitorListener {
    return {
      monitorSaved: async (tx: Database, monitor: Monitor) => {
        if (monitor.type !== 'heartbeat') return;
        const slug = typeof monitor.config.slug === 'string' ? monitor.config.slug : null;
        const ok = await new HeartbeatKeysRepository(tx).setSlug(monitor.organizationId, monitor.id, slug);
        if (!ok) {
          throw validationFailed([
            { field: 'config.slug', issue: 'is already the slug of another heartbeat monitor of this organization' },
          ]);
        }
      },
      monitorDeleted: async (tx: Database, monitor: Monitor) => {
        if (monitor.type === 'heartbeat') await new HeartbeatsRepository(tx).deleteOf(monitor.id);
      },
    };
  }
}
