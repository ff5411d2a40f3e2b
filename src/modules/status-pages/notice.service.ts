import type { AuditChange, AuditTrail } from '../audit/index.ts';
import { resourceChange } from '../audit/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db/index.ts';
import { notFound, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { isId, newId } from '../../platform/ids.ts';
import { canSeeEnvironment, type ServiceContext } from '../auth/index.ts';
import type { Incident } from '../incidents/index.ts';
import type { Page } from '../monitors/index.ts';
import type { StatusPageMonitors } from './status-page.service.ts';
import type { StatusPage } from './status-page.types.ts';
import { NoticesRepository } from './notices.repository.ts';
import {
  NOTICE_IMPACTS,
  type Notice,
  type NoticeCreateInput,
  type NoticeKind,
  type NoticeListener,
  type NoticePatchInput,
  type NoticePublication,
  type NoticeStatus,
  type NoticeUpdate,
  type NoticeUpdateInput,
  type NoticeWithUpdates,
  type PublicNoticeView,
} from './notice.types.ts';

/** What notices need of incidents: an incident of the organization, for `incident_id`. */
export interface NoticeIncidents {
  findAnywhere(organizationId: string, id: string): Promise<Incident | null>;
}

export interface NoticesServiceDeps {
  /** For the public reads (page, feeds); verbs write through their context's handle. */
  database: Database;
  clock: Clock;
  /** The page as the actor may see it (404 otherwise): StatusPagesService.get. */
  pages: { get(ctx: ServiceContext, id: string): Promise<StatusPage> };
  monitors: StatusPageMonitors;
  incidents: NoticeIncidents;
  /** Told of every publication and every update of a published notice, in its transaction (main.ts composes it). */
  listeners: readonly NoticeListener[];
}

/** Past notices on a public page: resolved within these days, at most this many. */
export const PAST_NOTICE_DAYS = 14;
export const PAST_NOTICES_MAX = 50;
const DAY_MS = 86_400_000;

const IMPACT_RANK = new Map(NOTICE_IMPACTS.map((impact, i) => [impact, i]));

/** The statuses a kind of notice may have: the incident timeline, or open (null) / resolved for the others. */
function statusProblem(kind: NoticeKind, status: NoticeStatus | null): string | null {
  if (kind === 'incident')
    return status === null
      ? 'an incident notice has a status: investigating, identified, monitoring or resolved'
      : null;
  return status === null || status === 'resolved'
    ? null
    : `a ${kind} notice is open (null) or resolved; ${status} belongs to incidents`;
}

/**
 * Notices of status pages (DECISIONS §18): incidents, maintenance and information a person tells a page's readers,
 * with a timeline of Markdown updates, drafts, and a post-mortem. Every publication and every update of a published
 * notice goes to the listeners inside its transaction.
 */
export class NoticesService {
  private readonly deps: NoticesServiceDeps;
  constructor(deps: NoticesServiceDeps) {
    this.deps = deps;
  }

  async list(
    ctx: ServiceContext,
    statusPageId: string,
    page: { limit: number; cursor?: string },
  ): Promise<Page<NoticeWithUpdates>> {
    const statusPage = await this.deps.pages.get(ctx, statusPageId);
    const repository = new NoticesRepository(ctx.db);
    const rows = await repository.list(
      ctx.actor.organizationId,
      statusPage.id,
      decodeIdCursor(page.cursor),
      page.limit,
    );
    const updates = await repository.updatesOf(rows.slice(0, page.limit).map((n) => n.id));
    return pageOf(
      rows.map((n) => ({ ...n, updates: updates.get(n.id) ?? [] })),
      page.limit,
      (n) => n.id,
    );
  }

  async get(ctx: ServiceContext, statusPageId: string, id: string): Promise<NoticeWithUpdates> {
    const statusPage = await this.deps.pages.get(ctx, statusPageId);
    return this.withUpdates(ctx.db, await this.find(ctx.db, ctx, statusPage.id, id));
  }

  async create(
    ctx: ServiceContext,
    statusPageId: string,
    input: NoticeCreateInput,
    shapeDetails: readonly ErrorDetail[] = [],
  ): Promise<NoticeWithUpdates> {
    const statusPage = await this.deps.pages.get(ctx, statusPageId);
    const body: Partial<NoticeCreateInput> = typeof input === 'object' && input !== null ? input : {};
    const details = [...shapeDetails, ...(await this.referenceProblems(ctx, body, shapeDetails))];
    const kind = body.kind ?? 'incident';
    const status = body.status !== undefined ? body.status : kind === 'incident' ? 'investigating' : null;
    if (!shapeDetails.some((d) => d.field === 'status' || d.field === 'kind')) {
      const problem = statusProblem(kind, status);
      if (problem) details.push({ field: 'status', issue: problem });
    }
    const postmortem = body.postmortem ?? null;
    if (body.postmortem_published === true && !postmortem?.trim())
      details.push({ field: 'postmortem_published', issue: 'there is no postmortem to publish' });
    if (details.length > 0) throw validationFailed(details);
    const now = ctx.clock.now();
    const published = body.published ?? false;
    const notice: Notice = {
      id: newId('ntc', now),
      organizationId: ctx.actor.organizationId,
      statusPageId: statusPage.id,
      kind,
      title: body.title!.trim(),
      impact: body.impact ?? (kind === 'incident' ? 'minor' : 'none'),
      status,
      affectedMonitorIds: [...(body.affected_monitor_ids ?? [])],
      incidentId: body.incident_id ?? null,
      published,
      publishedAt: published ? now : null,
      resolvedAt: status === 'resolved' ? now : null,
      postmortem,
      postmortemPublishedAt: body.postmortem_published === true ? now : null,
      automatic: false,
      createdAt: now,
      updatedAt: now,
    };
    const first: NoticeUpdate | null = body.body?.trim()
      ? { id: newId('ntu', now), noticeId: notice.id, status, body: body.body, createdAt: now }
      : null;
    return ctx.db.transaction(async (tx) => {
      const repository = new NoticesRepository(tx);
      await repository.insert(notice);
      if (first) await repository.insertUpdate(first);
      await ctx.audit?.record(tx, resourceChange('status_page_notice.create', 'status_page_notice', null, notice));
      const created = { ...notice, updates: first ? [first] : [] };
      if (published) await this.announce(tx, created, null);
      return created;
    });
  }

  async update(
    ctx: ServiceContext,
    statusPageId: string,
    id: string,
    input: NoticePatchInput,
    shapeDetails: readonly ErrorDetail[] = [],
  ): Promise<NoticeWithUpdates> {
    const statusPage = await this.deps.pages.get(ctx, statusPageId);
    const body: NoticePatchInput = typeof input === 'object' && input !== null ? input : {};
    const details = [...shapeDetails, ...(await this.referenceProblems(ctx, body, shapeDetails))];
    if (details.length > 0) throw validationFailed(details);
    return ctx.db.transaction(async (tx) => {
      const repository = new NoticesRepository(tx);
      const existing = await repository.findForUpdate(ctx.actor.organizationId, statusPage.id, id);
      if (!existing) throw notFound('Notice');
      const now = ctx.clock.now();
      const kind = body.kind ?? existing.kind;
      const status = body.status !== undefined ? body.status : existing.status;
      const problem = statusProblem(kind, status);
      if (problem) throw validationFailed([{ field: body.status !== undefined ? 'status' : 'kind', issue: problem }]);
      const postmortem = body.postmortem !== undefined ? body.postmortem : existing.postmortem;
      const postmortemPublished = body.postmortem_published ?? existing.postmortemPublishedAt !== null;
      if (postmortemPublished && !postmortem?.trim())
        throw validationFailed([
          {
            field: body.postmortem !== undefined ? 'postmortem' : 'postmortem_published',
            issue: 'a published postmortem cannot be empty',
          },
        ]);
      const published = body.published ?? existing.published;
      const updated: Notice = {
        ...existing,
        kind,
        title: body.title !== undefined ? body.title.trim() : existing.title,
        impact: body.impact ?? existing.impact,
        status,
        affectedMonitorIds: body.affected_monitor_ids ? [...body.affected_monitor_ids] : existing.affectedMonitorIds,
        incidentId: body.incident_id !== undefined ? body.incident_id : existing.incidentId,
        published,
        publishedAt: published ? (existing.published ? existing.publishedAt : now) : null,
        resolvedAt: status === 'resolved' ? (existing.resolvedAt ?? now) : null,
        postmortem,
        postmortemPublishedAt: postmortemPublished ? (existing.postmortemPublishedAt ?? now) : null,
        updatedAt: now,
      };
      await repository.update(updated);
      await ctx.audit?.record(tx, resourceChange('status_page_notice.update', 'status_page_notice', existing, updated));
      const withUpdates = await this.withUpdates(tx, updated);
      if (published && !existing.published) await this.announce(tx, withUpdates, null);
      return withUpdates;
    });
  }

  async delete(ctx: ServiceContext, statusPageId: string, id: string): Promise<void> {
    const statusPage = await this.deps.pages.get(ctx, statusPageId);
    await ctx.db.transaction(async (tx) => {
      const repository = new NoticesRepository(tx);
      const existing = await this.find(tx, ctx, statusPage.id, id);
      if (!(await repository.delete(ctx.actor.organizationId, statusPage.id, existing.id))) throw notFound('Notice');
      await ctx.audit?.record(tx, resourceChange('status_page_notice.delete', 'status_page_notice', existing, null));
    });
  }

  /** Adds an update to the timeline; its status (if given) becomes the notice's. */
  async addUpdate(
    ctx: ServiceContext,
    statusPageId: string,
    id: string,
    input: NoticeUpdateInput,
    shapeDetails: readonly ErrorDetail[] = [],
  ): Promise<NoticeWithUpdates> {
    const statusPage = await this.deps.pages.get(ctx, statusPageId);
    const body: Partial<NoticeUpdateInput> = typeof input === 'object' && input !== null ? input : {};
    const details = [...shapeDetails];
    if (typeof body.body === 'string' && !body.body.trim() && !details.some((d) => d.field === 'body'))
      details.push({ field: 'body', issue: 'must not be empty' });
    if (details.length > 0) throw validationFailed(details);
    return ctx.db.transaction(async (tx) => {
      const repository = new NoticesRepository(tx);
      const existing = await repository.findForUpdate(ctx.actor.organizationId, statusPage.id, id);
      if (!existing) throw notFound('Notice');
      const status = body.status !== undefined ? body.status : existing.status;
      const problem = statusProblem(existing.kind, status);
      if (problem) throw validationFailed([{ field: 'status', issue: problem }]);
      const now = ctx.clock.now();
      const update: NoticeUpdate = {
        id: newId('ntu', now),
        noticeId: existing.id,
        status,
        body: body.body!,
        createdAt: now,
      };
      const updated: Notice = {
        ...existing,
        status,
        resolvedAt: status === 'resolved' ? (existing.resolvedAt ?? now) : null,
        updatedAt: now,
      };
      await repository.insertUpdate(update);
      await repository.update(updated);
      await ctx.audit?.record(tx, updateAdded(existing, updated, update));
      const withUpdates = await this.withUpdates(tx, updated);
      if (updated.published) await this.announce(tx, withUpdates, update);
      return withUpdates;
    });
  }

  /**
   * A draft of an incident notice, written by the product (auto_notices) in the caller's transaction `tx` and
   * recorded by `audit` (the system's recorder). Not published: a person reads it and publishes it.
   */
  async draft(
    tx: Database,
    audit: AuditTrail | undefined,
    draft: Pick<
      Notice,
      'organizationId' | 'statusPageId' | 'title' | 'impact' | 'affectedMonitorIds' | 'incidentId'
    > & { body: string },
  ): Promise<Notice> {
    const now = this.deps.clock.now();
    const notice: Notice = {
      id: newId('ntc', now),
      organizationId: draft.organizationId,
      statusPageId: draft.statusPageId,
      kind: 'incident',
      title: draft.title,
      impact: draft.impact,
      status: 'investigating',
      affectedMonitorIds: draft.affectedMonitorIds,
      incidentId: draft.incidentId,
      published: false,
      publishedAt: null,
      resolvedAt: null,
      postmortem: null,
      postmortemPublishedAt: null,
      automatic: true,
      createdAt: now,
      updatedAt: now,
    };
    const repository = new NoticesRepository(tx);
    await repository.insert(notice);
    await repository.insertUpdate({
      id: newId('ntu', now),
      noticeId: notice.id,
      status: 'investigating',
      body: draft.body,
      createdAt: now,
    });
    await audit?.record(tx, resourceChange('status_page_notice.draft', 'status_page_notice', null, notice));
    return notice;
  }

  /** Whether a page already has a notice of this incident (the drafter drafts one per page and incident). */
  hasNoticeOfIncident(db: Database, statusPageId: string, incidentId: string): Promise<boolean> {
    return new NoticesRepository(db).existsForIncident(statusPageId, incidentId);
  }

  /**
   * What a public page shows: published notices still open (most severe first, then newest), and those resolved in
   * the last PAST_NOTICE_DAYS days (newest first). Affected monitors are limited to the page's own.
   */
  async publicOf(
    db: Database,
    page: Pick<StatusPage, 'id' | 'monitorIds'>,
    now: number,
  ): Promise<{ active: PublicNoticeView[]; past: PublicNoticeView[] }> {
    const repository = new NoticesRepository(db);
    const notices = await repository.publishedOf(page.id, now - PAST_NOTICE_DAYS * DAY_MS, 200);
    const views = await this.publicViews(repository, page, notices);
    const active = views
      .filter((v) => v.status !== 'resolved')
      .sort((a, b) => IMPACT_RANK.get(a.impact)! - IMPACT_RANK.get(b.impact)! || b.publishedAt - a.publishedAt);
    const past = views
      .filter((v) => v.status === 'resolved')
      .sort((a, b) => (b.resolvedAt ?? 0) - (a.resolvedAt ?? 0))
      .slice(0, PAST_NOTICES_MAX);
    return { active, past };
  }

  /** The published notices of a page for its feeds: the latest activity first, at most `limit`. */
  async feedOf(page: Pick<StatusPage, 'id' | 'monitorIds'>, limit: number): Promise<PublicNoticeView[]> {
    const repository = new NoticesRepository(this.deps.database);
    const notices = await repository.publishedOf(page.id, 0, limit * 4);
    const views = await this.publicViews(repository, page, notices);
    return views.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1)).slice(0, limit);
  }

  private async publicViews(
    repository: NoticesRepository,
    page: Pick<StatusPage, 'id' | 'monitorIds'>,
    notices: readonly Notice[],
  ): Promise<PublicNoticeView[]> {
    const updates = await repository.updatesOf(notices.map((n) => n.id));
    return notices.map((n) => {
      const list = updates.get(n.id) ?? [];
      const last = list[list.length - 1];
      return {
        id: n.id,
        kind: n.kind,
        title: n.title,
        impact: n.impact,
        status: n.status,
        affectedMonitorIds: page.monitorIds.filter((m) => n.affectedMonitorIds.includes(m)),
        publishedAt: n.publishedAt ?? n.createdAt,
        resolvedAt: n.resolvedAt,
        updatedAt: Math.max(n.publishedAt ?? n.createdAt, last?.createdAt ?? 0, n.postmortemPublishedAt ?? 0),
        updates: list.map((u) => ({ id: u.id, status: u.status, body: u.body, createdAt: u.createdAt })).reverse(),
        postmortem: n.postmortemPublishedAt !== null ? n.postmortem : null,
        postmortemPublishedAt: n.postmortemPublishedAt,
      };
    });
  }

  /** Each listener once, in the transaction: the publication (`update` null) or an update of a published notice. */
  private async announce(tx: Database, notice: NoticeWithUpdates, update: NoticeUpdate | null): Promise<void> {
    if (this.deps.listeners.length === 0) return;
    const latest = update ?? notice.updates[notice.updates.length - 1] ?? null;
    const publication: NoticePublication = {
      organizationId: notice.organizationId,
      statusPageId: notice.statusPageId,
      noticeId: notice.id,
      updateId: update?.id ?? null,
      kind: notice.kind,
      title: notice.title,
      impact: notice.impact,
      status: notice.status,
      bodyMarkdown: latest?.body ?? '',
      publishedAt: new Date(update?.createdAt ?? notice.publishedAt ?? notice.updatedAt),
    };
    for (const listener of this.deps.listeners) await listener(tx, publication);
  }

  private async find(db: Database, ctx: ServiceContext, statusPageId: string, id: string): Promise<Notice> {
    const notice = isId(id, 'ntc')
      ? await new NoticesRepository(db).find(ctx.actor.organizationId, statusPageId, id)
      : null;
    if (!notice) throw notFound('Notice');
    return notice;
  }

  private async withUpdates(db: Database, notice: Notice): Promise<NoticeWithUpdates> {
    const updates = await new NoticesRepository(db).updatesOf([notice.id]);
    return { ...notice, updates: updates.get(notice.id) ?? [] };
  }

  /**
   * The rules a schema cannot say, for the fields whose shape is right: the affected monitors exist in the
   * organization and the actor's environments, each once; the incident exists in the organization.
   */
  private async referenceProblems(
    ctx: ServiceContext,
    body: { affected_monitor_ids?: string[]; incident_id?: string | null },
    shapeDetails: readonly ErrorDetail[],
  ): Promise<ErrorDetail[]> {
    const details: ErrorDetail[] = [];
    const ids = body.affected_monitor_ids;
    if (Array.isArray(ids) && !shapeDetails.some((d) => d.field.startsWith('affected_monitor_ids'))) {
      const found = await this.deps.monitors.findManyAnywhere(ids);
      const visible = new Set(
        found
          .filter((m) => m.organizationId === ctx.actor.organizationId && canSeeEnvironment(ctx.actor, m.environment))
          .map((m) => m.id),
      );
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        const field = `affected_monitor_ids[${i}]`;
        if (seen.has(id)) details.push({ field, issue: `monitor ${id} is listed twice` });
        else if (!visible.has(id)) details.push({ field, issue: `monitor ${id} does not exist in this organization` });
        seen.add(id);
      });
    }
    const incidentId = body.incident_id;
    if (typeof incidentId === 'string' && !shapeDetails.some((d) => d.field === 'incident_id')) {
      const incident = isId(incidentId, 'inc')
        ? await this.deps.incidents.findAnywhere(ctx.actor.organizationId, incidentId)
        : null;
      if (!incident)
        details.push({ field: 'incident_id', issue: `incident ${incidentId} does not exist in this organization` });
    }
    return details;
  }
}

/** The audit entry of an update added: the status it set and the update itself. */
function updateAdded(before: Notice, after: Notice, update: NoticeUpdate): AuditChange {
  return {
    organizationId: after.organizationId,
    action: 'status_page_notice.add_update',
    target: { type: 'status_page_notice', id: after.id },
    before: { status: before.status, resolvedAt: before.resolvedAt },
    after: { status: after.status, resolvedAt: after.resolvedAt, update: { id: update.id, body: update.body } },
  };
}
