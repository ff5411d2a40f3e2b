import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { DEFAULT_DESTINATION_EVENTS } from '../events/index.ts';
import type { Chatapp1InstallStore, PendingInstall } from './destinations/chatapp1_channel/chatapp1_channel.install.ts';
import type { SlackInstallation } from './destinations/index.ts';
import { DestinationsRepository } from './destinations.repository.ts';
import { SIGNING_SECRET, type DestinationSecrets } from './destination.secrets.ts';

/** The Slack install flow's storage: pending states and chatapp1_channel destinations, secrets sealed. */
export class Chatapp1InstallRecords implements Chatapp1InstallStore {
  private readonly database: Database;
  private readonly secrets: DestinationSecrets;
  private readonly clock: Clock;
  constructor(deps: { database: Database; secrets: DestinationSecrets; clock: Clock }) {
    this.database = deps.database;
    this.secrets = deps.secrets;
    this.clock = deps.clock;
  }

  async savePending(p: PendingInstall): Promise<void> {
    await new DestinationsRepository(this.database).insertSlackState({
      state_hash: p.stateHash,
      organization_id: p.organizationId,
      destination_id: p.destinationId,
      name: p.name,
      expires_at: p.expiresAt,
      created_at: p.createdAt,
    });
  }

  async takePending(stateHash: string): Promise<PendingInstall | null> {
    const row = await new DestinationsRepository(this.database).takeSlackState(stateHash);
    if (!row) return null;
    return {
      stateHash: row.state_hash,
      organizationId: row.organization_id,
      destinationId: row.destination_id,
      name: row.name,
      expiresAt: Number(row.expires_at),
      createdAt: Number(row.created_at),
    };
  }

  async destinationType(organizationId: string, destinationId: string): Promise<string | null> {
    return (await new DestinationsRepository(this.database).find(organizationId, destinationId))?.type ?? null;
  }

  async reauthorize(organizationId: string, destinationId: string, installation: SlackInstallation): Promise<boolean> {
    return this.database.transaction(async (tx) => {
      const repo = new DestinationsRepository(tx);
      const existing = await repo.find(organizationId, destinationId);
      if (!existing) return false;
      const { [SIGNING_SECRET]: _ignored, ...secret } = this.secrets.open(existing.id, existing.sealedSecrets);
      await repo.update({
        ...existing,
        config: { ...existing.config, installation_id: installation.team.id },
        sealedSecrets: this.secrets.seal(existing.id, { ...secret, bot_token: installation.botToken }),
        needsReauthorization: false,
        updatedAt: this.clock.now(),
      });
      return true;
    });
  }

  async createDestination(organizationId: string, name: string, installation: SlackInstallation): Promise<string> {
    const now = this.clock.now();
    const id = newId('dst', now);
    await new DestinationsRepository(this.database).insert({
      id,
      organizationId,
      type: 'chatapp1_channel',
      name,
      events: [...DEFAULT_DESTINATION_EVENTS],
      groupWindowSeconds: 0,
      config: { installation_id: installation.team.id },
      sealedSecrets: this.secrets.seal(id, { bot_token: installation.botToken }),
      payloadFormat: null,
      state: { team_name: installation.team.name },
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      needsReauthorization: false,
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  /** The sealed secrets (the bot token) of the organization's installation `installationId`, or null if unknown. */
  async installationSecret(
    db: Database,
    organizationId: string,
    installationId: string,
  ): Promise<Record<string, string> | null> {
    const installed = (await new DestinationsRepository(db).listByOrganization(organizationId)).find(
      (d) => d.type === 'chatapp1_channel' && d.config.installation_id === installationId && d.sealedSecrets !== null,
    );
    if (!installed) return null;
    const { [SIGNING_SECRET]: _none, ...secret } = this.secrets.open(installed.id, installed.sealedSecrets);
    return secret.bot_token ? { bot_token: secret.bot_token } : null;
  }
}
