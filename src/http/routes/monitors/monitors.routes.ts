import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { MaintenanceService } from '../../../modules/maintenance/index.ts';
import type { Monitor, MonitorInput, MonitorPatch, MonitorsService } from '../../../modules/monitors/index.ts';
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

const tags = ['monitors'];

const monitorRef = Type.Ref(MonitorRecord);

export function registerMonitorRoutes(
  app: FastifyInstance,
  deps: { monitors: MonitorsService; maintenance?: Pick<MaintenanceService, 'inMaintenance'> },
): void {
  const { monitors } = deps;
  /** DECISIONS §16: a monitor (not paused) inside a maintenance window reads as status `maintenance`. */
  const shown = async (ctx: ServiceContext, list: Monitor[]): Promise<Array<ReturnType<typeof presentMonitor>>> => {
    const inside = deps.maintenance
      ? await deps.maintenance.inMaintenance(ctx.db, ctx.actor.organizationId, list, ctx.clock.now())
      : new Set<string>();
    return list.map((m) => {
      const view = presentMonitor(m);
      if (inside.has(m.id) && !m.paused) view.status = 'maintenance';
      return view;
    });
  };
  const one = async (ctx: ServiceContext, m: Monitor) => (await shown(ctx, [m]))[0]!;
  for (const schema of [...MONITOR_SHARED_SCHEMAS, MonitorRecord, MonitorList]) app.addSchema(schema);

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
      const { limit, cursor, ...filter } = request.query;
      const ctx = contextOf(request);
      const page = await monitors.list(ctx, filter, {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: await shown(ctx, page.data), next_cursor: page.next_cursor };
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
