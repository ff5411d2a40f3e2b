import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { MaintenanceService } from '../../../modules/maintenance/index.ts';
import type {
  Monitor,
  MonitorFilter,
  MonitorInput,
  MonitorPatch,
  MonitorsService,
} from '../../../modules/monitors/index.ts';
import type { ServiceContext } from '../../../modules/auth/index.ts';
import { bodyShapeDetails, contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { presentMonitor } from './monitor.presenter.ts';
import {
  MONITOR_SHARED_SCHEMAS,
  MonitorCreateBody,
  MonitorList,
  MonitorListQuery,
  MonitorPatchBody,
  MonitorRecord,
} from './monitor.schemas.ts';
import { requireNoBody } from '../../plugins/validation.plugin.ts';
import {
  MonitorCounts,
  MonitorCountsQuery,
  MonitorSummaryList,
  MonitorSummaryRecord,
} from './monitor-summary.schemas.ts';

/** A presented monitor cut to a list row (MonitorSummary). */
function summaryOf(view: Record<string, unknown>): Record<string, unknown> {
  return {
    id: view.id,
    name: view.name,
    type: view.type,
    target: view.target,
    tags: view.tags,
    environment: view.environment,
    paused: view.paused,
    status: view.status,
    last_checked_at: view.last_checked_at,
    ...(view.blocked_by !== undefined && { blocked_by: view.blocked_by }),
  };
}

const tags = ['monitors'];

const monitorRef = Type.Ref(MonitorRecord);
/** Without maintenance windows wired, nothing is in maintenance. */
const NOTHING = { monitorIds: [], tags: [], match: 'inside' } as const;

export function registerMonitorRoutes(
  app: FastifyInstance,
  deps: { monitors: MonitorsService; maintenance?: Pick<MaintenanceService, 'inMaintenance' | 'coverageAt'> },
): void {
  const { monitors } = deps;
  /**
   * DECISIONS §16: a monitor (not paused) inside a maintenance window reads as status `maintenance`. DECISIONS §17: a
   * down monitor's `blocked_by` also names its parents inside a window (their stored status is what their checks
   * said; the monitors module knows nothing of windows).
   */
  const shown = async (ctx: ServiceContext, list: Monitor[]): Promise<Array<ReturnType<typeof presentMonitor>>> => {
    const organizationId = ctx.actor.organizationId;
    const now = ctx.clock.now();
    const inside = deps.maintenance
      ? await deps.maintenance.inMaintenance(ctx.db, organizationId, list, now)
      : new Set<string>();
    const parentIds = [
      ...new Set(list.filter((m) => m.status === 'down' && !m.paused).flatMap((m) => m.config.depends_on ?? [])),
    ];
    const parentsInside =
      deps.maintenance && parentIds.length > 0
        ? await deps.maintenance.inMaintenance(
            ctx.db,
            organizationId,
            (await monitors.findManyAnywhere(parentIds, ctx.db)).filter(
              (p) => p.organizationId === organizationId && !p.paused,
            ),
            now,
          )
        : new Set<string>();
    return list.map((m) => {
      const view = presentMonitor(m);
      if (inside.has(m.id) && !m.paused) view.status = 'maintenance';
      if (m.status === 'down' && !m.paused && parentsInside.size > 0) {
        const blocking = (m.config.depends_on ?? []).filter(
          (id) => parentsInside.has(id) || (m.blockedBy ?? []).includes(id),
        );
        if (blocking.length > 0) view.blocked_by = blocking;
      }
      return view;
    });
  };
  const one = async (ctx: ServiceContext, m: Monitor) => (await shown(ctx, [m]))[0]!;
  /**
   * The list's status filter agrees with the status shown: `maintenance` lists the unpaused monitors that active
   * windows cover; `up`, `down` and `pending` leave them out (they read as `maintenance`); `paused` is stored as is.
   */
  const listFilter = async (
    ctx: ServiceContext,
    status: Static<typeof MonitorListQuery>['status'],
    rest: Omit<MonitorFilter, 'status' | 'maintenance'>,
  ): Promise<MonitorFilter> => {
    if (status === undefined) return rest;
    if (status === 'paused' || !deps.maintenance) {
      return status === 'maintenance' ? { ...rest, maintenance: NOTHING } : { ...rest, status };
    }
    const covered = await deps.maintenance.coverageAt(ctx.db, ctx.actor.organizationId, ctx.clock.now());
    if (status === 'maintenance') return { ...rest, maintenance: { ...covered, match: 'inside' } };
    return { ...rest, status, maintenance: { ...covered, match: 'outside' } };
  };
  for (const schema of [...MONITOR_SHARED_SCHEMAS, MonitorRecord, MonitorList]) app.addSchema(schema);
  for (const schema of [MonitorSummaryRecord, MonitorSummaryList, MonitorCounts]) app.addSchema(schema);

  app.post<{ Body: MonitorInput }>(
    '/api/v1/monitors',
    {
      config: { scope: 'monitors:create' },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Create a monitor',
        operationId: 'createMonitor',
        body: MonitorCreateBody,
        response: { 201: monitorRef },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const monitor = await monitors.create(ctx, request.body, bodyShapeDetails(request));
      return reply.code(201).send(await one(ctx, monitor));
    },
  );

  app.get<{ Querystring: Static<typeof MonitorListQuery> }>(
    '/api/v1/monitors',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: 'List monitors',
        operationId: 'listMonitors',
        querystring: MonitorListQuery,
        response: { 200: Type.Ref(MonitorList) },
      },
    },
    async (request) => {
      const { limit, cursor, status, sort, ...rest } = request.query;
      const ctx = contextOf(request);
      const filter = await listFilter(ctx, status, rest);
      const page = await monitors.list(ctx, filter, {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
        ...(sort !== undefined && { sort }),
      });
      return { data: await shown(ctx, page.data), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Querystring: Static<typeof MonitorListQuery> }>(
    '/api/v1/monitors/summaries',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: 'List monitors as list rows (no configuration; the total with the first page)',
        operationId: 'listMonitorSummaries',
        querystring: MonitorListQuery,
        response: { 200: Type.Ref(MonitorSummaryList) },
      },
    },
    async (request) => {
      const { limit, cursor, status, sort, ...rest } = request.query;
      const ctx = contextOf(request);
      const filter = await listFilter(ctx, status, rest);
      const [page, total] = await Promise.all([
        monitors.list(ctx, filter, {
          limit: limit ?? 50,
          lean: true,
          ...(cursor !== undefined && { cursor }),
          ...(sort !== undefined && { sort }),
        }),
        cursor === undefined ? monitors.countMatching(ctx, filter) : undefined,
      ]);
      const data = (await shown(ctx, page.data)).map(summaryOf);
      return { data, next_cursor: page.next_cursor, ...(total !== undefined && { total }) };
    },
  );

  app.get<{ Querystring: Static<typeof MonitorCountsQuery> }>(
    '/api/v1/monitors/counts',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: 'Count monitors per status as shown (maintenance included), in one query',
        description:
          'What the overview shows without reading the list: the monitors the caller sees (its organization and, ' +
          'for a key, its environments) matching the filters, per status; `maintenance` counts the unpaused ones an ' +
          'active maintenance window covers, as `GET /monitors?status=maintenance` lists them.',
        operationId: 'countMonitors',
        querystring: MonitorCountsQuery,
        response: { 200: Type.Ref(MonitorCounts) },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const covered = deps.maintenance
        ? await deps.maintenance.coverageAt(ctx.db, ctx.actor.organizationId, ctx.clock.now())
        : NOTHING;
      const counts = await monitors.countByStatus(ctx, request.query, covered);
      const by_status = { up: 0, degraded: 0, down: 0, pending: 0, paused: 0, maintenance: 0 };
      for (const key of Object.keys(by_status) as Array<keyof typeof by_status>) by_status[key] = counts.get(key) ?? 0;
      return { total: Object.values(by_status).reduce((a, b) => a + b, 0), by_status };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id',
    {
      config: { scope: 'monitors:read' },
      schema: {
        tags,
        summary: 'Read a monitor',
        operationId: 'getMonitor',
        params: IdParams,
        response: { 200: monitorRef },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      return one(ctx, await monitors.get(ctx, request.params.id));
    },
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: MonitorPatch }>(
    '/api/v1/monitors/:id',
    {
      config: { scope: 'monitors:write' },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Update a monitor',
        operationId: 'updateMonitor',
        params: IdParams,
        body: MonitorPatchBody,
        response: { 200: monitorRef },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      return one(ctx, await monitors.update(ctx, request.params.id, request.body, bodyShapeDetails(request)));
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id',
    {
      config: { scope: 'monitors:delete' },
      schema: {
        tags,
        summary: 'Delete a monitor',
        operationId: 'deleteMonitor',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      requireNoBody(request.body);
      await monitors.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/pause',
    {
      config: { scope: 'monitors:write' },
      schema: {
        tags,
        summary: 'Pause a monitor (checks stop; status becomes paused)',
        operationId: 'pauseMonitor',
        params: IdParams,
        response: { 200: monitorRef },
      },
    },
    async (request) => {
      requireNoBody(request.body);
      return presentMonitor(await monitors.pause(contextOf(request), request.params.id));
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/resume',
    {
      config: { scope: 'monitors:write' },
      schema: {
        tags,
        summary: 'Resume a paused monitor (status becomes pending until checked)',
        operationId: 'resumeMonitor',
        params: IdParams,
        response: { 200: monitorRef },
      },
    },
    async (request) => {
      requireNoBody(request.body);
      const ctx = contextOf(request);
      return one(ctx, await monitors.resume(ctx, request.params.id));
    },
  );
}
