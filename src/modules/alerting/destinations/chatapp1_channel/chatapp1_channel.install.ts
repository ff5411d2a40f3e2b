import { createHash } from 'node:crypto';
import type { Clock } from '../../../../platform/clock.ts';
import { DomainError, notFound, validationFailed } from '../../../../platform/errors.ts';
import { randomToken } from '../../../../platform/ids.ts';
import { buildInstallUrl, exchangeCode, type SlackInstallation } from './chatapp1_channel.oauth.ts';

const STATE_TTL_MS = 15 * 60_000;

/** A pending install: the hash of its single-use state, who started it, and what it will create or re-authorise. */
export interface PendingInstall {
  stateHash: string;
  organizationId: string;
  /** Re-authorise this destination instead of creating one. */
  destinationId: string | null;
  name: string;
  expiresAt: number;
  createdAt: number;
}

/** Where the install flow keeps its state and destinations (implemented by the alerting module over its tables). */
export interface Chatapp1InstallStore {
  savePending(pending: PendingInstall): Promise<void>;
  /** Returns and deletes the pending install (single use). */
  takePending(stateHash: string): Promise<PendingInstall | null>;
  /** The destination's type, or null when the organization has no such destination. */
  destinationType(organizationId: string, destinationId: string): Promise<string | null>;
  /** Stores the new bot token on the destination; false when it no longer exists. */
  reauthorize(organizationId: string, destinationId: string, installation: SlackInstallation): Promise<boolean>;
  /** Creates a chatapp1_channel destination holding the bot token sealed; its channel is picked afterwards (PATCH). */
  createDestination(organizationId: string, name: string, installation: SlackInstallation): Promise<string>;
}

export interface Chatapp1InstallDeps {
  clientId: string | null;
  clientSecret: string | null;
  /** Public URL of this installation (the OAuth redirect comes back there). */
  publicUrl: string;
  /** Slack's base URL (providers.chatapp1_channel.base_url). */
  baseUrl: string;
  fetch: typeof fetch;
  clock: Clock;
  store: Chatapp1InstallStore;
}

export type InstallCallbackResult =
  { ok: true; destinationId: string; created: boolean } | { ok: false; error: string };

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/** The Slack app (chatapp1_channel) OAuth v2 install: authorize URL with a single-use state, then the callback. */
export class Chatapp1ChannelInstall {
  private readonly deps: Chatapp1InstallDeps;
  constructor(deps: Chatapp1InstallDeps) {
    this.deps = deps;
  }

  get redirectUri(): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}/integrations/slack/callback`;
  }

  /** The authorize URL; `destinationId` re-authorises an existing destination. The caller checked the actor's role. */
  async installUrl(
    organizationId: string,
    input: { name?: string; destinationId?: string },
  ): Promise<{ url: string; expiresAt: number }> {
    const { clientId, clientSecret, store, clock } = this.deps;
    if (!clientId || !clientSecret) {
      throw new DomainError(
        'validation_failed',
        'The Slack app is not configured on this server (providers.chatapp1_channel.client_id / client_secret).',
        [{ field: 'providers.chatapp1_channel.client_id', issue: 'is not configured' }],
      );
    }
    if (input.destinationId) {
      const type = await store.destinationType(organizationId, input.destinationId);
      if (type === null) throw notFound('Destination');
      if (type !== 'chatapp1_channel')
        throw validationFailed([{ field: 'destination_id', issue: 'must be a chatapp1_channel destination' }]);
    }
    const state = randomToken(24);
    const now = clock.now();
    await store.savePending({
      stateHash: hashState(state),
      organizationId,
      destinationId: input.destinationId ?? null,
      name: input.name ?? 'Slack',
      expiresAt: now + STATE_TTL_MS,
      createdAt: now,
    });
    const url = buildInstallUrl({ clientId, redirectUri: this.redirectUri, state, base: this.deps.baseUrl });
    return { url, expiresAt: now + STATE_TTL_MS };
  }

  /** The OAuth callback: exchanges the code and stores the bot token sealed (new destination or re-authorised). */
  async callback(code: string, state: string): Promise<InstallCallbackResult> {
    const { clientId, clientSecret, store, clock } = this.deps;
    const pending = await store.takePending(hashState(state));
    if (!pending || pending.expiresAt < clock.now())
      return { ok: false, error: 'This install link is unknown or expired; start the installation again.' };
    if (!clientId || !clientSecret) return { ok: false, error: 'The Slack app is not configured on this server.' };
    const exchanged = await exchangeCode({
      base: this.deps.baseUrl,
      clientId,
      clientSecret,
      code,
      redirectUri: this.redirectUri,
      fetch: this.deps.fetch,
    });
    if (!exchanged.ok) return { ok: false, error: `Slack refused the installation (${exchanged.error}).` };
    const { installation } = exchanged;
    if (pending.destinationId) {
      const done = await store.reauthorize(pending.organizationId, pending.destinationId, installation);
      if (!done) return { ok: false, error: 'The destination to re-authorise no longer exists.' };
      return { ok: true, destinationId: pending.destinationId, created: false };
    }
    const id = await store.createDestination(pending.organizationId, pending.name, installation);
    return { ok: true, destinationId: id, created: true };
  }
}
