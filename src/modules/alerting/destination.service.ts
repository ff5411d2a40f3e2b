import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { isAdmin, type Actor, type ServiceContext } from '../auth/index.ts';
import { DEFAULT_DESTINATION_EVENTS } from '../events/index.ts';
import { generateSigningSecret, type DestinationProvider, type DestinationType } from './destinations/index.ts';
import { AlertLinksRepository, isMissingLinkEnd } from './alert-links.repository.ts';
import { DestinationsRepository } from './destinations.repository.ts';
import { SIGNING_SECRET, type DestinationSecrets } from './destination.secrets.ts';
import type { DestinationChecks } from './destination.checks.ts';
import type { DestinationCreateInput, DestinationPatchInput, DestinationView } from './destination.inputs.ts';
import type { DestinationViews } from './destination.view.ts';
import type { Destination } from './alerting.types.ts';
import { destinationChange } from './destination.audit.ts';

export interface DestinationsServiceDeps {
  registry: ReadonlyMap<DestinationType, DestinationProvider>;
  secrets: DestinationSecrets;
  views: DestinationViews;
  checks: DestinationChecks;
  /** A chatapp1_channel created by POST reuses the bot token of the organization's installation (install flow). */
  installationSecret(ctx: ServiceContext, installationId: string): Promise<Record<string, string> | null>;
}

/** The merged config minus the bot token it had, unless the patch itself gives one. */
function withoutOldToken(merged: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  if (patch.bot_token !== undefined) return merged;
  const { bot_token: _old, ...rest } = merged;
  return rest;
}

/** How often an update is merged again onto a destination that another change committed to meanwhile. */
const UPDATE_ATTEMPTS = 5;

/** What an update read and merged onto: when the stored row differs from it at write time, the merge is redone. */
function mergeBase(d: Destination): string {
  return JSON.stringify([
    d.name,
    d.events,
    d.payloadFormat,
    d.groupWindowSeconds,
    d.config,
    d.sealedSecrets,
    d.state,
    d.needsReauthorization,
  ]);
}

export function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor))
    throw new DomainError('forbidden', 'Notification destinations are managed by the organization owner or an admin.');
}

/**
 * Destinations: owner/admin CRUD. Every change (the destination and its monitor links) is one transaction on the
 * context's handle, so a crash leaves it whole or absent.
 */
export class DestinationsService {
  private readonly deps: DestinationsServiceDeps;
  constructor(deps: DestinationsServiceDeps) {
    this.deps = deps;
  }

  /**
   * The problems of a body the route schema refused, beyond the schema's own: its well-typed parts meet the rules a
   * valid body meets (name, the type's config rules and private-network policy, monitor ids), so one 422 names every
   * problem. Fields of the wrong type are left to the schema; nothing is written.
   */
  async bodyIssues(ctx: ServiceContext, body: Record<string, unknown>): Promise<ErrorDetail[]> {
    const details: ErrorDetail[] = [];
    if (typeof body.name === 'string') this.deps.checks.name(body.name, details);
    const type = body.type;
    if (
      typeof type === 'string' &&
      this.deps.registry.has(type as DestinationType) &&
      typeof body.group_window_seconds === 'number'
    )
      this.deps.checks.groupWindow(type as DestinationType, body.group_window_seconds, details);
    const config = body.config;
    if (
      typeof type === 'string' &&
      this.deps.registry.has(type as DestinationType) &&
      typeof config === 'object' &&
      config !== null &&
      !Array.isArray(config)
    )
      await this.deps.checks.config(type as DestinationType, config, details);
    const ids = body.monitor_ids;
    if (Array.isArray(ids) && ids.every((id): id is string => typeof id === 'string'))
      await this.deps.checks.monitorIds(ctx.actor, ids, details);
    return details;
  }

  async create(ctx: ServiceContext, input: DestinationCreateInput): Promise<DestinationView> {
    const { actor } = ctx;
    requireAdmin(actor);
    const { checks } = this.deps;
    const details: ErrorDetail[] = [];
    const type = input.type;
    const name = checks.name(input.name ?? type, details);
    const events = input.events === undefined ? [...DEFAULT_DESTINATION_EVENTS] : [...new Set(input.events)];
    const payloadFormat =
      checks.payloadFormat(type, input.payload_format, details) ?? (type === 'generic_webhook' ? 'standard' : null);
    const groupWindowSeconds = checks.groupWindow(type, input.group_window_seconds, details) ?? 0;
    const config = input.config ?? {};
    await checks.config(type, config, details);
    const withToken = type === 'chatapp1_channel' ? await this.installedConfig(ctx, config, details) : config;
    const monitorIds = await checks.monitorIds(actor, input.monitor_ids ?? [], details);
    if (details.length > 0) throw validationFailed(details);

    const now = ctx.clock.now();
    const id = newId('dst', now);
    const { clear, secret } = this.deps.secrets.split(this.provider(type), withToken);
    const signingSecret = type === 'generic_webhook' ? generateSigningSecret() : undefined;
    if (signingSecret) secret[SIGNING_SECRET] = signingSecret;
    const destination: Destination = {
      id,
      organizationId: actor.organizationId,
      type,
      name,
      events,
      config: clear,
      sealedSecrets: this.deps.secrets.seal(id, secret),
      payloadFormat,
      groupWindowSeconds,
      state: {},
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      needsReauthorization: false,
      createdAt: now,
      updatedAt: now,
    };
    await this.linkingMonitors(ctx, input.monitor_ids ?? [], () =>
      ctx.db.transaction(async (tx) => {
        await new DestinationsRepository(tx).insert(destination);
        await new AlertLinksRepository(tx).add(
          actor.organizationId,
          monitorIds.map((monitorId) => ({ monitorId, destinationId: id })),
          now,
        );
        await ctx.audit?.record(tx, destinationChange('destination.create', null, destination));
      }),
    );
    const view = await this.deps.views.one(ctx.db, actor, destination);
    return signingSecret ? { ...view, signingSecret } : view;
  }

  async get(ctx: ServiceContext, id: string): Promise<DestinationView> {
    requireAdmin(ctx.actor);
    return this.deps.views.one(ctx.db, ctx.actor, await this.find(ctx, id));
  }

  async list(
    ctx: ServiceContext,
    page: { limit: number; cursor?: string },
  ): Promise<{ data: DestinationView[]; next_cursor: string | null }> {
    requireAdmin(ctx.actor);
    const rows = await new DestinationsRepository(ctx.db).listByOrganization(
      ctx.actor.organizationId,
      decodeIdCursor(page.cursor),
      page.limit + 1,
    );
    // Hidden ones are skipped: the cursor still moves past them (a page may then hold fewer than `limit`).
    const { data, next_cursor } = pageOf(rows, page.limit, (d) => d.id);
    const hidden = await this.deps.views.hiddenFrom(
      ctx.db,
      ctx.actor,
      data.map((d) => d.id),
    );
    return {
      data: await this.deps.views.many(
        ctx.db,
        ctx.actor,
        data.filter((d) => !hidden.has(d.id)),
      ),
      next_cursor,
    };
  }

  /**
   * Merges the patch onto the stored destination and writes it in one transaction. The slow checks (config, DNS of a
   * URL, monitor visibility) run before it; inside it the row is read again under a lock, and if another change
   * committed since the merge read it, the merge is redone onto that change: two PATCHes of different fields both
   * land, whatever their order.
   */
  async update(ctx: ServiceContext, id: string, patch: DestinationPatchInput): Promise<DestinationView> {
    const { actor } = ctx;
    requireAdmin(actor);
    for (let attempt = 1; ; attempt++) {
      const existing = await this.find(ctx, id);
      const { updated, wanted } = await this.merged(ctx, existing, patch);
      const written = await this.linkingMonitors(ctx, patch.monitor_ids ?? [], () =>
        ctx.db.transaction(async (tx) => {
          const current = await new DestinationsRepository(tx).findForUpdate(actor.organizationId, id);
          // A link to another environment's monitor (or a report of it) made since the read hides it now too.
          if (!current || (await this.deps.views.hiddenFrom(tx, actor, [id])).has(id)) throw notFound('Destination');
          if (mergeBase(current) !== mergeBase(existing)) return false;
          await new DestinationsRepository(tx).update(updated);
          if (wanted !== null) await this.replaceVisibleLinks(tx, actor, id, wanted, updated.updatedAt);
          await ctx.audit?.record(tx, destinationChange('destination.update', existing, updated));
          return true;
        }),
      );
      if (written) return this.deps.views.one(ctx.db, actor, updated);
      if (attempt === UPDATE_ATTEMPTS)
        throw new DomainError('conflict', 'The destination kept changing while this update was applied; try again.');
    }
  }

  /** The destination as the patch makes it, and the monitor ids it asks for (null: links unchanged); 422 on bad input. */
  private async merged(
    ctx: ServiceContext,
    existing: Destination,
    patch: DestinationPatchInput,
  ): Promise<{ updated: Destination; wanted: string[] | null }> {
    const { checks } = this.deps;
    const details: ErrorDetail[] = [];
    const name = patch.name === undefined ? existing.name : checks.name(patch.name, details);
    const events = patch.events === undefined ? existing.events : [...new Set(patch.events)];
    const payloadFormat =
      patch.payload_format === undefined
        ? existing.payloadFormat
        : checks.payloadFormat(existing.type, patch.payload_format, details);
    const groupWindowSeconds =
      checks.groupWindow(existing.type, patch.group_window_seconds, details) ?? existing.groupWindowSeconds;
    let sealedSecrets = existing.sealedSecrets;
    let clearConfig = existing.config;
    let reauthorized = false;
    if (patch.config !== undefined) {
      // Key by key: a secret field left out keeps its sealed value; null removes a key.
      const { [SIGNING_SECRET]: signing, ...currentSecret } = this.deps.secrets.open(
        existing.id,
        existing.sealedSecrets,
      );
      const merged: Record<string, unknown> = { ...existing.config, ...currentSecret };
      for (const [k, v] of Object.entries(patch.config)) {
        if (v === null) delete merged[k];
        else merged[k] = v;
      }
      await checks.config(existing.type, merged, details);
      // Moving a Slack destination to another installation takes that installation's bot token.
      const moved =
        existing.type === 'chatapp1_channel' && merged.installation_id !== existing.config.installation_id
          ? await this.installedConfig(ctx, withoutOldToken(merged, patch.config), details)
          : merged;
      const { clear, secret } = this.deps.secrets.split(this.provider(existing.type), moved);
      if (signing) secret[SIGNING_SECRET] = signing;
      clearConfig = clear;
      sealedSecrets = this.deps.secrets.seal(existing.id, secret);
      reauthorized = Object.keys(secret).some((k) => secret[k] !== currentSecret[k]);
    }
    const wanted =
      patch.monitor_ids === undefined ? null : await checks.monitorIds(ctx.actor, patch.monitor_ids, details);
    if (details.length > 0) throw validationFailed(details);
    const updated: Destination = {
      ...existing,
      name,
      events,
      payloadFormat,
      groupWindowSeconds,
      config: clearConfig,
      sealedSecrets,
      needsReauthorization: existing.needsReauthorization && !reauthorized,
      updatedAt: ctx.clock.now(),
    };
    return { updated, wanted };
  }

  /**
   * Inside the update's transaction: the destination's links become `wanted` among the monitors the caller can see;
   * links to other environments' monitors stay as they are.
   */
  private async replaceVisibleLinks(
    tx: Database,
    actor: Actor,
    id: string,
    wanted: readonly string[],
    now: number,
  ): Promise<void> {
    const links = new AlertLinksRepository(tx);
    const linked = (await links.monitorIdsOf(actor.organizationId, [id])).get(id) ?? [];
    const replaceable = [...(await this.deps.views.visibleMonitorIds(actor, linked, tx))].filter(
      (monitorId) => !wanted.includes(monitorId),
    );
    await links.removeForDestination(actor.organizationId, id, replaceable);
    await links.add(
      actor.organizationId,
      wanted.map((monitorId) => ({ monitorId, destinationId: id })),
      now,
    );
  }

  /**
   * Runs a change that links monitors checked beforehand. A monitor deleted since its check makes the link insert
   * fail its foreign key (the transaction rolls back): that is the same 422 on `monitor_ids[i]` as a check finds.
   */
  private async linkingMonitors<T>(
    ctx: ServiceContext,
    monitorIds: readonly string[],
    change: () => Promise<T>,
  ): Promise<T> {
    try {
      return await change();
    } catch (err) {
      if (!isMissingLinkEnd(err)) throw err;
      const details: ErrorDetail[] = [];
      await this.deps.checks.monitorIds(ctx.actor, monitorIds, details);
      if (details.length > 0) throw validationFailed(details);
      throw err;
    }
  }

  /**
   * Deletes the destination; its links go with it (foreign keys cascade in the same statement). A key that cannot
   * see it (it serves another environment) gets 404 from `find`: deleting it would silently stop that environment's
   * alerts and reports.
   */
  async delete(ctx: ServiceContext, id: string): Promise<void> {
    const { actor } = ctx;
    requireAdmin(actor);
    const existing = await this.find(ctx, id);
    await ctx.db.transaction(async (tx) => {
      await new DestinationsRepository(tx).delete(actor.organizationId, id);
      await ctx.audit?.record(tx, destinationChange('destination.delete', existing, null));
    });
  }

  /**
   * A chatapp1_channel config names an installation of this organization (made by the install flow); its bot token
   * comes with it unless the config gives one. Otherwise a detail on `config.installation_id`.
   */
  private async installedConfig(
    ctx: ServiceContext,
    config: Record<string, unknown>,
    details: ErrorDetail[],
  ): Promise<Record<string, unknown>> {
    if (typeof config.installation_id !== 'string') return config;
    const installed = await this.deps.installationSecret(ctx, config.installation_id);
    if (installed) return { ...installed, ...config };
    details.push({
      field: 'config.installation_id',
      issue: 'is not a Slack installation of this organization (install the app first: GET …/webhooks/slack/install)',
    });
    return config;
  }

  /**
   * The caller's destination, or not_found: another organization's, and one serving monitors or scheduled reports
   * outside the caller's environments (read, change, test and delete alike).
   */
  async find(ctx: ServiceContext, id: string): Promise<Destination> {
    const d = await new DestinationsRepository(ctx.db).find(ctx.actor.organizationId, id);
    if (!d || (await this.deps.views.hiddenFrom(ctx.db, ctx.actor, [d.id])).has(d.id)) throw notFound('Destination');
    return d;
  }

  private provider(type: DestinationType): DestinationProvider {
    const p = this.deps.registry.get(type);
    if (!p) throw new Error(`no provider for ${type}`);
    return p;
  }
}
