import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import { isAdmin, type Actor } from '../auth/index.ts';
import {
  DEFAULT_DESTINATION_EVENTS,
  EVENT_TYPES,
  type EventsService,
  type EventType as OutboxEventType,
} from '../events/index.ts';
import type { MonitorsService } from '../monitors/index.ts';
import {
  DESTINATION_TYPES,
  buildInstallUrl,
  exchangeCode,
  generateSigningSecret,
  maskConfig,
  type DestinationProvider,
  type DestinationType,
  type EventType,
  type ProviderContext,
} from './destinations/index.ts';
import { DeliveriesRepository } from './deliveries.repository.ts';
import { DestinationsRepository } from './destinations.repository.ts';
import { SIGNING_SECRET, type DestinationSecrets } from './destination.secrets.ts';
import type { DeliveryRecord, Destination } from './alerting.types.ts';
import { URL_TYPES, privateTargetIssue, type HostResolver } from './network.guard.ts';
import type { AlertPipeline } from './pipeline/pipeline.ts';

export interface DestinationsServiceDeps {
  database: Database;
  clock: Clock;
  registry: ReadonlyMap<DestinationType, DestinationProvider>;
  secrets: DestinationSecrets;
  monitors: MonitorsService;
  events: EventsService;
  pipeline: AlertPipeline;
  providerContext: ProviderContext;
  publicUrl: string;
  allowPrivateTargets: boolean;
  resolveHost?: HostResolver;
  slack: { clientId: string | null; clientSecret: string | null };
  /** How long POST /{id}/test waits for the outcome (ms). */
  testWaitMs?: number;
  /** Sleep used while waiting for another process to finish a test delivery (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

/** A destination as the API shows it: secrets masked, attached monitors listed. */
export interface DestinationView {
  destination: Destination;
  /** Config with secret fields masked. */
  maskedConfig: Record<string, unknown>;
  monitorIds: string[];
  /** Only in the create response of a generic webhook. */
  signingSecret?: string;
}

export interface TestResult {
  deliveryId: string | null;
  status: DeliveryRecord['status'] | 'queued';
  attempts: number;
  error: string | null;
  destination: DestinationView;
}

const FIELDS = ['type', 'name', 'events', 'config', 'payload_format', 'monitor_ids'];
const PATCHABLE = ['name', 'events', 'config', 'payload_format', 'monitor_ids'];
const SLACK_STATE_TTL_MS = 15 * 60_000;

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  throw validationFailed([{ field: 'body', issue: 'must be a JSON object' }]);
}

function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor))
    throw new DomainError('forbidden', 'Notification destinations are managed by the organization owner or an admin.');
}

function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

function stringArray(value: unknown, field: string, details: ErrorDetail[]): string[] | null {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    details.push({ field, issue: 'must be an array of strings' });
    return null;
  }
  return [...new Set(value as string[])];
}

/** Destinations: owner/admin CRUD, secrets sealed, attach from either side, test sends, Slack install. */
export class DestinationsService {
  private readonly deps: DestinationsServiceDeps;
  private readonly repo: DestinationsRepository;
  constructor(deps: DestinationsServiceDeps) {
    this.deps = deps;
    this.repo = new DestinationsRepository(deps.database);
  }

  private provider(type: DestinationType): DestinationProvider {
    const p = this.deps.registry.get(type);
    if (!p) throw new Error(`no provider for ${type}`);
    return p;
  }

  /** Ids that are not destinations of the organization (wired into the monitors module's validation). */
  async missingIds(organizationId: string, ids: readonly string[]): Promise<string[]> {
    const found = await this.repo.existingIds(organizationId, ids);
    return ids.filter((id) => !found.has(id));
  }

  async create(actor: Actor, body: unknown): Promise<DestinationView> {
    requireAdmin(actor);
    const input = objectBody(body);
    const details: ErrorDetail[] = Object.keys(input)
      .filter((k) => !FIELDS.includes(k))
      .map((k) => ({ field: k, issue: 'is not a known field for destinations' }));
    const type = input.type;
    if (typeof type !== 'string' || !(DESTINATION_TYPES as readonly string[]).includes(type)) {
      details.push({ field: 'type', issue: `must be one of ${DESTINATION_TYPES.join(', ')}` });
      throw validationFailed(details);
    }
    const dtype = type as DestinationType;
    const name = this.validName(input.name ?? dtype, details);
    const events =
      input.events === undefined ? [...DEFAULT_DESTINATION_EVENTS] : this.validEvents(input.events, details);
    const payloadFormat =
      this.validPayloadFormat(dtype, input.payload_format, details) ??
      (dtype === 'generic_webhook' ? 'standard' : null);
    const config = input.config === undefined ? {} : input.config;
    await this.validConfig(dtype, config, details);
    const monitorIds =
      input.monitor_ids === undefined
        ? []
        : await this.validMonitorIds(actor.organizationId, input.monitor_ids, details);
    if (details.length > 0) throw validationFailed(details);

    const now = this.deps.clock.now();
    const id = newId('dst', now);
    const { clear, secret } = this.deps.secrets.split(this.provider(dtype), config as Record<string, unknown>);
    const signingSecret = dtype === 'generic_webhook' ? generateSigningSecret() : undefined;
    if (signingSecret) secret[SIGNING_SECRET] = signingSecret;
    const destination: Destination = {
      id,
      organizationId: actor.organizationId,
      type: dtype,
      name,
      events: events ?? [],
      config: clear,
      sealedSecrets: this.deps.secrets.seal(id, secret),
      payloadFormat,
      state: {},
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      needsReauthorization: false,
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.insert(destination);
    await this.attach(actor.organizationId, id, monitorIds ?? []);
    const view = await this.view(destination);
    return signingSecret ? { ...view, signingSecret } : view;
  }

  async get(actor: Actor, id: string): Promise<DestinationView> {
    requireAdmin(actor);
    return this.view(await this.find(actor, id));
  }

  async list(
    actor: Actor,
    page: { limit: number; cursor?: string },
  ): Promise<{ data: DestinationView[]; next_cursor: string | null }> {
    requireAdmin(actor);
    const rows = await this.repo.listByOrganization(actor.organizationId, decodeIdCursor(page.cursor), page.limit + 1);
    const { data, next_cursor } = pageOf(rows, page.limit, (d) => d.id);
    return { data: await Promise.all(data.map((d) => this.view(d))), next_cursor };
  }

  async update(actor: Actor, id: string, body: unknown): Promise<DestinationView> {
    requireAdmin(actor);
    const existing = await this.find(actor, id);
    const patch = objectBody(body);
    const details: ErrorDetail[] = Object.keys(patch)
      .filter((k) => !PATCHABLE.includes(k))
      .map((k) => ({
        field: k,
        issue:
          k === 'type'
            ? 'cannot be changed; create a new destination instead'
            : 'is not a known field for destinations',
      }));
    const name = patch.name === undefined ? existing.name : this.validName(patch.name, details);
    const events = patch.events === undefined ? existing.events : this.validEvents(patch.events, details);
    const payloadFormat =
      patch.payload_format === undefined
        ? existing.payloadFormat
        : this.validPayloadFormat(existing.type, patch.payload_format, details);
    let sealedSecrets = existing.sealedSecrets;
    let clearConfig = existing.config;
    let reauthorized = false;
    if (patch.config !== undefined) {
      if (patch.config === null || typeof patch.config !== 'object' || Array.isArray(patch.config)) {
        details.push({ field: 'config', issue: 'must be an object' });
      } else {
        // Key by key: a secret field left out keeps its sealed value; null removes a key.
        const { [SIGNING_SECRET]: signing, ...currentSecret } = this.deps.secrets.open(
          existing.id,
          existing.sealedSecrets,
        );
        const merged: Record<string, unknown> = { ...existing.config, ...currentSecret };
        for (const [k, v] of Object.entries(patch.config as Record<string, unknown>)) {
          if (v === null) delete merged[k];
          else merged[k] = v;
        }
        await this.validConfig(existing.type, merged, details);
        const { clear, secret } = this.deps.secrets.split(this.provider(existing.type), merged);
        if (signing) secret[SIGNING_SECRET] = signing;
        clearConfig = clear;
        sealedSecrets = this.deps.secrets.seal(existing.id, secret);
        reauthorized = Object.keys(secret).some((k) => secret[k] !== currentSecret[k]);
      }
    }
    const monitorIds =
      patch.monitor_ids === undefined
        ? null
        : await this.validMonitorIds(actor.organizationId, patch.monitor_ids, details);
    if (details.length > 0) throw validationFailed(details);
    const updated: Destination = {
      ...existing,
      name,
      events: events ?? existing.events,
      payloadFormat,
      config: clearConfig,
      sealedSecrets,
      needsReauthorization: existing.needsReauthorization && !reauthorized,
      updatedAt: this.deps.clock.now(),
    };
    await this.repo.update(updated);
    if (monitorIds) await this.attach(actor.organizationId, id, monitorIds);
    return this.view(updated);
  }

  async delete(actor: Actor, id: string): Promise<void> {
    requireAdmin(actor);
    await this.find(actor, id);
    await this.attach(actor.organizationId, id, []);
    await this.repo.delete(actor.organizationId, id);
  }

  /**
   * Sends a synthetic `test` event to the destination through the same pipeline (outbox → match → delivery →
   * render → send → record) and waits up to testWaitMs for its first attempt.
   */
  async test(actor: Actor, id: string): Promise<TestResult> {
    requireAdmin(actor);
    const destination = await this.find(actor, id);
    const now = this.deps.clock.now();
    const eventId = newId('evt', now);
    await this.deps.database.transaction((tx) =>
      this.deps.events.record(tx, {
        id: eventId,
        organizationId: actor.organizationId,
        // `test` is an alerting-only event (never in a destination's events list): it is addressed by id.
        type: 'test' as OutboxEventType,
        monitorId: null,
        incidentId: null,
        occurredAt: now,
        payload: {
          destination_ids: [destination.id],
          summary: `Test notification from Tocsin for "${destination.name}".`,
        },
      }),
    );
    const waitMs = this.deps.testWaitMs ?? 5000;
    const sleep = this.deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const deliveries = new DeliveriesRepository(this.deps.database);
    const started = Date.now();
    let delivery: DeliveryRecord | null;
    for (;;) {
      await this.deps.pipeline.fanOutOnce();
      delivery = await deliveries.findByEventAndTarget(eventId, destination.id);
      if (delivery) {
        if (delivery.status === 'pending' && delivery.attempts === 0) await this.deps.pipeline.attemptNow(delivery.id);
        delivery = await deliveries.find(delivery.id);
        if (delivery && delivery.status !== 'in_flight' && delivery.attempts > 0) break;
      }
      if (Date.now() - started >= waitMs) break;
      await sleep(50);
    }
    return {
      deliveryId: delivery?.id ?? null,
      status: delivery?.status ?? 'queued',
      attempts: delivery?.attempts ?? 0,
      error: delivery?.lastError ?? null,
      destination: await this.view(await this.find(actor, id)),
    };
  }

  // ── Slack app (chatapp1_channel) OAuth v2 install ──

  /** The Slack authorize URL with a single-use state; `destinationId` re-authorises an existing destination. */
  async slackInstallUrl(
    actor: Actor,
    input: { name?: string; destinationId?: string },
  ): Promise<{ url: string; expiresAt: number }> {
    requireAdmin(actor);
    const { clientId } = this.deps.slack;
    if (!clientId || !this.deps.slack.clientSecret) {
      throw new DomainError(
        'validation_failed',
        'The Slack app is not configured on this server (providers.chatapp1_channel.client_id / client_secret).',
        [{ field: 'providers.chatapp1_channel.client_id', issue: 'is not configured' }],
      );
    }
    if (input.destinationId) {
      const d = await this.find(actor, input.destinationId);
      if (d.type !== 'chatapp1_channel')
        throw validationFailed([{ field: 'destination_id', issue: 'must be a chatapp1_channel destination' }]);
    }
    const state = randomToken(24);
    const now = this.deps.clock.now();
    await this.repo.insertSlackState({
      state_hash: hashState(state),
      organization_id: actor.organizationId,
      destination_id: input.destinationId ?? null,
      name: input.name ?? 'Slack',
      expires_at: now + SLACK_STATE_TTL_MS,
      created_at: now,
    });
    const url = buildInstallUrl({
      clientId,
      redirectUri: this.slackRedirectUri(),
      state,
      base: this.deps.providerContext.baseUrl('chatapp1_channel'),
    });
    return { url, expiresAt: now + SLACK_STATE_TTL_MS };
  }

  slackRedirectUri(): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}/integrations/slack/callback`;
  }

  /** The OAuth callback: exchanges the code, stores the bot token sealed; the channel is picked afterwards (PATCH). */
  async slackCallback(
    code: string,
    state: string,
  ): Promise<{ ok: true; destinationId: string; created: boolean } | { ok: false; error: string }> {
    const saved = await this.repo.takeSlackState(hashState(state));
    const now = this.deps.clock.now();
    if (!saved || saved.expires_at < now)
      return { ok: false, error: 'This install link is unknown or expired; start the installation again.' };
    const { clientId, clientSecret } = this.deps.slack;
    if (!clientId || !clientSecret) return { ok: false, error: 'The Slack app is not configured on this server.' };
    const exchanged = await exchangeCode({
      base: this.deps.providerContext.baseUrl('chatapp1_channel'),
      clientId,
      clientSecret,
      code,
      redirectUri: this.slackRedirectUri(),
      fetch: this.deps.providerContext.fetch,
    });
    if (!exchanged.ok) return { ok: false, error: `Slack refused the installation (${exchanged.error}).` };
    const { installation } = exchanged;
    if (saved.destination_id) {
      const existing = await this.repo.find(saved.organization_id, saved.destination_id);
      if (!existing) return { ok: false, error: 'The destination to re-authorise no longer exists.' };
      const { [SIGNING_SECRET]: _ignored, ...secret } = this.deps.secrets.open(existing.id, existing.sealedSecrets);
      await this.repo.update({
        ...existing,
        config: { ...existing.config, installation_id: installation.team.id },
        sealedSecrets: this.deps.secrets.seal(existing.id, { ...secret, bot_token: installation.botToken }),
        needsReauthorization: false,
        updatedAt: now,
      });
      return { ok: true, destinationId: existing.id, created: false };
    }
    const id = newId('dst', now);
    await this.repo.insert({
      id,
      organizationId: saved.organization_id,
      type: 'chatapp1_channel',
      name: saved.name,
      events: [...DEFAULT_DESTINATION_EVENTS],
      config: { installation_id: installation.team.id },
      sealedSecrets: this.deps.secrets.seal(id, { bot_token: installation.botToken }),
      payloadFormat: null,
      state: { team_name: installation.team.name },
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      needsReauthorization: false,
      createdAt: now,
      updatedAt: now,
    });
    return { ok: true, destinationId: id, created: true };
  }

  // ── helpers ──

  private async find(actor: Actor, id: string): Promise<Destination> {
    const d = await this.repo.find(actor.organizationId, id);
    if (!d) throw notFound('Destination');
    return d;
  }

  private async view(d: Destination): Promise<DestinationView> {
    const { [SIGNING_SECRET]: _signing, ...secret } = this.deps.secrets.open(d.id, d.sealedSecrets);
    const monitors = await this.deps.monitors.monitorsAlerting(d.organizationId, d.id);
    return {
      destination: d,
      maskedConfig: maskConfig(this.provider(d.type), { ...d.config, ...secret }),
      monitorIds: monitors.map((m) => m.id),
    };
  }

  /** Makes exactly `monitorIds` alert this destination (adds it to them, removes it from the others). */
  private async attach(organizationId: string, destinationId: string, monitorIds: readonly string[]): Promise<void> {
    const { monitors } = this.deps;
    const wanted = new Set(monitorIds);
    const current = await monitors.monitorsAlerting(organizationId, destinationId);
    for (const m of current) {
      if (!wanted.has(m.id))
        await monitors.setAlertDestinationIds(
          organizationId,
          m.id,
          m.config.alert_destination_ids.filter((x) => x !== destinationId),
        );
    }
    const currentIds = new Set(current.map((m) => m.id));
    const toAdd = monitorIds.filter((id) => !currentIds.has(id));
    for (const m of await monitors.findManyAnywhere(toAdd)) {
      if (m.organizationId !== organizationId) continue;
      await monitors.setAlertDestinationIds(organizationId, m.id, [...m.config.alert_destination_ids, destinationId]);
    }
  }

  private validName(value: unknown, details: ErrorDetail[]): string {
    if (
      typeof value !== 'string' ||
      value.trim() === '' ||
      value.length > 200 ||
      [...value].some((c) => c.charCodeAt(0) < 0x20)
    ) {
      details.push({ field: 'name', issue: 'must be a non-empty string of at most 200 characters' });
      return '';
    }
    return value.trim();
  }

  private validEvents(value: unknown, details: ErrorDetail[]): EventType[] | null {
    const list = stringArray(value, 'events', details);
    if (!list) return null;
    list.forEach((e, i) => {
      if (!(EVENT_TYPES as readonly string[]).includes(e))
        details.push({ field: `events[${i}]`, issue: `must be one of ${EVENT_TYPES.join(', ')}` });
    });
    return list as EventType[];
  }

  private validPayloadFormat(
    type: DestinationType,
    value: unknown,
    details: ErrorDetail[],
  ): 'standard' | 'legacy' | null {
    if (value === undefined || value === null) return null;
    if (type !== 'generic_webhook') {
      details.push({ field: 'payload_format', issue: 'applies to generic_webhook destinations only' });
      return null;
    }
    if (value !== 'standard' && value !== 'legacy') {
      details.push({ field: 'payload_format', issue: 'must be standard or legacy' });
      return null;
    }
    return value;
  }

  private async validConfig(type: DestinationType, config: unknown, details: ErrorDetail[]): Promise<void> {
    const issues = this.provider(type).validateConfig(config);
    details.push(...issues);
    if (issues.length > 0 || !URL_TYPES.includes(type)) return;
    const url = String((config as Record<string, unknown>).url);
    const issue = await privateTargetIssue(url, this.deps.allowPrivateTargets, this.deps.resolveHost);
    if (issue) details.push({ field: 'config.url', issue });
  }

  private async validMonitorIds(
    organizationId: string,
    value: unknown,
    details: ErrorDetail[],
  ): Promise<string[] | null> {
    const ids = stringArray(value, 'monitor_ids', details);
    if (!ids) return null;
    const found = new Set(
      (await this.deps.monitors.findManyAnywhere(ids))
        .filter((m) => m.organizationId === organizationId)
        .map((m) => m.id),
    );
    ids.forEach((id, i) => {
      if (!found.has(id))
        details.push({ field: `monitor_ids[${i}]`, issue: `monitor ${id} does not exist in this organization` });
    });
    return ids;
  }
}
