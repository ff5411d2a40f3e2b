import { resourceChange } from '../audit/index.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { actorRef, canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import { EVENT_TYPES } from '../events/index.ts';
import type { MonitorsService, Page } from '../monitors/index.ts';
import { SilencesRepository } from './silences.repository.ts';
import { UNSILENCEABLE_EVENTS, type Silence, type SilenceMatchers } from './silence.types.ts';

export const SILENCE_COMMENT_MAX = 1000;
export const SILENCE_MATCHER_MAX = 200;
/** Alert events a silence may name (`scheduled_report` is not an alert). */
export const SILENCEABLE_EVENTS: readonly string[] = EVENT_TYPES.filter((e) => !UNSILENCEABLE_EVENTS.includes(e));

/** A create body as the route schema admits it (shapes, lengths, id patterns); the rest is checked here. */
export interface SilenceInput {
  matchers: { monitor_ids?: string[]; tags?: string[]; events?: string[]; destination_ids?: string[] };
  /** RFC 3339; default now. */
  starts_at?: string;
  ends_at: string;
  comment: string;
}

export interface MuteInput {
  minutes: number;
  comment?: string;
}

/** Port (wired in main.ts from alerting): which of these ids are destinations of the organization. */
export type DestinationIdsIn = (db: Database, organizationId: string, ids: readonly string[]) => Promise<Set<string>>;

export interface SilencesServiceDeps {
  monitors: Pick<MonitorsService, 'findManyAnywhere' | 'get'>;
  destinationIdsIn: DestinationIdsIn;
}

/** Silences (DECISIONS §16): ad-hoc quiet that holds notifications back; incidents open and count as usual. */
export class SilencesService {
  private readonly deps: SilencesServiceDeps;
  constructor(deps: SilencesServiceDeps) {
    this.deps = deps;
  }

  async create(ctx: ServiceContext, input: SilenceInput): Promise<Silence> {
    const details = await this.issues(ctx, input);
    if (details.length > 0) throw validationFailed(details);
    const now = ctx.clock.now();
    const m = input.matchers;
    return this.insert(ctx, {
      matchers: {
        monitorIds: unique(m.monitor_ids),
        tags: unique(m.tags),
        events: unique(m.events),
        destinationIds: unique(m.destination_ids),
      },
      startsAt: input.starts_at === undefined ? now : Date.parse(input.starts_at),
      endsAt: Date.parse(input.ends_at),
      comment: input.comment.trim(),
    });
  }

  /** POST /monitors/{id}/mute: a silence of this monitor from now for `minutes` (404 for a monitor out of sight). */
  async mute(ctx: ServiceContext, monitorId: string, input: MuteInput): Promise<Silence> {
    const monitor = await this.deps.monitors.get(ctx, monitorId);
    const now = ctx.clock.now();
    const comment = input.comment?.trim() || `Muted for ${input.minutes} minute${input.minutes === 1 ? '' : 's'}`;
    return this.insert(ctx, {
      matchers: { monitorIds: [monitor.id], tags: [], events: [], destinationIds: [] },
      startsAt: now,
      endsAt: now + input.minutes * 60_000,
      comment,
    });
  }

  async get(ctx: ServiceContext, id: string): Promise<Silence> {
    const silence = isId(id, 'sil') ? await new SilencesRepository(ctx.db).find(ctx.actor.organizationId, id) : null;
    if (!silence) throw notFound('Silence');
    return silence;
  }

  /** Newest first; ended silences only when asked for. */
  async list(
    ctx: ServiceContext,
    page: { limit: number; cursor?: string; includeEnded?: boolean },
  ): Promise<Page<Silence>> {
    const rows = await new SilencesRepository(ctx.db).list(
      ctx.actor.organizationId,
      page.limit + 1,
      decodeIdCursor(page.cursor),
      page.includeEnded ? undefined : ctx.clock.now(),
    );
    return pageOf(rows, page.limit, (s) => s.id);
  }

  /** Ends the silence now (expire early); one already ended is returned as it is. */
  async end(ctx: ServiceContext, id: string): Promise<Silence> {
    const existing = await this.get(ctx, id);
    const now = ctx.clock.now();
    if (existing.endsAt <= now) return existing;
    const ended: Silence = { ...existing, startsAt: Math.min(existing.startsAt, now), endsAt: now, updatedAt: now };
    await ctx.db.transaction(async (tx) => {
      await new SilencesRepository(tx).updateTimes(ended);
      await ctx.audit?.record(tx, resourceChange('silence.end', 'silence', existing, ended));
    });
    return ended;
  }

  async delete(ctx: ServiceContext, id: string): Promise<void> {
    const existing = await this.get(ctx, id);
    await ctx.db.transaction(async (tx) => {
      if (!(await new SilencesRepository(tx).delete(ctx.actor.organizationId, id))) throw notFound('Silence');
      await ctx.audit?.record(tx, resourceChange('silence.delete', 'silence', existing, null));
    });
  }

  /** The silences of these organizations holding at some moment of [from, to] (alerting's fan-out, any org). */
  overlapping(db: Database, organizationIds: readonly string[], from: number, to: number): Promise<Silence[]> {
    return new SilencesRepository(db).overlapping(organizationIds, from, to);
  }

  /**
   * Every rule of a create body the schema cannot say, as details naming the field: times (parseable, end after
   * start and in the future), at least one matcher, monitors the caller sees, destinations of the organization, known
   * event names, a comment that is not blank. Used for a body the schema refused too, so one 422 names every problem.
   */
  async bodyIssues(ctx: ServiceContext, body: Record<string, unknown>): Promise<ErrorDetail[]> {
    return this.issues(ctx, body as Partial<SilenceInput>);
  }

  private async issues(ctx: ServiceContext, input: Partial<SilenceInput>): Promise<ErrorDetail[]> {
    const details: ErrorDetail[] = [];
    const now = ctx.clock.now();
    const starts = typeof input.starts_at === 'string' ? Date.parse(input.starts_at) : now;
    if (typeof input.starts_at === 'string' && Number.isNaN(starts))
      details.push({ field: 'starts_at', issue: 'must be an RFC 3339 timestamp' });
    if (typeof input.ends_at === 'string') {
      const ends = Date.parse(input.ends_at);
      if (Number.isNaN(ends)) details.push({ field: 'ends_at', issue: 'must be an RFC 3339 timestamp' });
      else if (!Number.isNaN(starts) && ends <= starts)
        details.push({ field: 'ends_at', issue: 'must be after starts_at' });
      else if (ends <= now) details.push({ field: 'ends_at', issue: 'must be in the future' });
    }
    if (typeof input.comment === 'string' && input.comment.trim() === '')
      details.push({ field: 'comment', issue: 'must not be blank' });
    const m = input.matchers;
    if (typeof m !== 'object' || m === null) return details;
    const lists = [m.monitor_ids, m.tags, m.events, m.destination_ids];
    if (lists.every((l) => !Array.isArray(l) || l.length === 0))
      details.push({
        field: 'matchers',
        issue: 'must name at least one of monitor_ids, tags, events or destination_ids',
      });
    if (isStrings(m.monitor_ids)) await this.checkMonitors(ctx, m.monitor_ids, details);
    if (isStrings(m.destination_ids)) {
      const found = await this.deps.destinationIdsIn(ctx.db, ctx.actor.organizationId, m.destination_ids);
      m.destination_ids.forEach((id, i) => {
        if (!found.has(id))
          details.push({
            field: `matchers.destination_ids[${i}]`,
            issue: `destination ${id} does not exist in this organization`,
          });
      });
    }
    if (isStrings(m.events))
      m.events.forEach((e, i) => {
        if (!SILENCEABLE_EVENTS.includes(e))
          details.push({
            field: `matchers.events[${i}]`,
            issue: `is not an alert event; one of ${SILENCEABLE_EVENTS.join(', ')}`,
          });
      });
    return details;
  }

  private async checkMonitors(ctx: ServiceContext, ids: readonly string[], details: ErrorDetail[]): Promise<void> {
    const found = await this.deps.monitors.findManyAnywhere(ids, ctx.db);
    const usable = new Set(
      found
        .filter(
          (mon) => mon.organizationId === ctx.actor.organizationId && canSeeEnvironment(ctx.actor, mon.environment),
        )
        .map((mon) => mon.id),
    );
    ids.forEach((id, i) => {
      if (!usable.has(id))
        details.push({
          field: `matchers.monitor_ids[${i}]`,
          issue: `monitor ${id} is not a monitor of this organization in your environments`,
        });
    });
  }

  private async insert(
    ctx: ServiceContext,
    fields: Pick<Silence, 'matchers' | 'startsAt' | 'endsAt' | 'comment'>,
  ): Promise<Silence> {
    const now = ctx.clock.now();
    const silence: Silence = {
      id: newId('sil', now),
      organizationId: ctx.actor.organizationId,
      ...fields,
      createdBy: actorRef(ctx.actor),
      createdAt: now,
      updatedAt: now,
    };
    await ctx.db.transaction(async (tx) => {
      await new SilencesRepository(tx).insert(silence);
      await ctx.audit?.record(tx, resourceChange('silence.create', 'silence', null, silence));
    });
    return silence;
  }
}

function unique(values: readonly string[] | undefined): string[] {
  return [...new Set(values ?? [])];
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export type { SilenceMatchers };
