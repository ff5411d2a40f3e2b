import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  scheduleView,
  type MaintenanceService,
  type WindowInput,
  type WindowPatch,
  type WindowView,
} from '../../../modules/maintenance/index.ts';
import type { MonitorsService } from '../../../modules/monitors/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import {
  MaintenancePreview,
  MaintenancePreviewBody,
  MaintenanceWindowCreateBody,
  MaintenanceWindowList,
  MaintenanceWindowListQuery,
  MaintenanceWindowPatchBody,
  MaintenanceWindowRecord,
  MonitorMaintenance,
} from './maintenance.schemas.ts';

const tags = ['maintenance windows'];
const windowRef = Type.Ref(MaintenanceWindowRecord);

export function presentWindow(w: WindowView) {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    monitor_ids: w.monitorIds,
    tags: w.tags,
    schedule: scheduleView(w.schedule),
    timezone: w.timezone,
    suppress_alerts: w.suppressAlerts,
    exclude_from_sla: w.excludeFromSla,
    status_page_ids: w.statusPageIds,
    announce_minutes_before: w.announceMinutesBefore,
    active: w.active,
    next_start_at: w.next ? toIso(w.next.start) : null,
    next_end_at: w.next ? toIso(w.next.end) : null,
    created_at: toIso(w.createdAt),
    updated_at: toIso(w.updatedAt),
  };
}

/** /api/v1/maintenance-windows (DECISIONS §16): CRUD, end now, preview, and a monitor's next window. */
export function registerMaintenanceRoutes(
  app: FastifyInstance,
  deps: { maintenance: MaintenanceService; monitors: MonitorsService },
): void {
  const { maintenance, monitors } = deps;
  for (const schema of [MaintenanceWindowRecord, MaintenanceWindowList]) app.addSchema(schema);

  app.post<{ Body: WindowInput }>(
    '/api/v1/maintenance-windows',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags,
        summary: 'Create a maintenance window',
        operationId: 'createMaintenanceWindow',
        body: MaintenanceWindowCreateBody,
        response: { 201: windowRef },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentWindow(await maintenance.create(contextOf(request), request.body))),
  );

  app.get<{ Querystring: Static<typeof MaintenanceWindowListQuery> }>(
    '/api/v1/maintenance-windows',
    {
      config: { scope: 'maintenance:read' },
      schema: {
        tags,
        summary: 'List maintenance windows',
        operationId: 'listMaintenanceWindows',
        querystring: MaintenanceWindowListQuery,
        response: { 200: Type.Ref(MaintenanceWindowList) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const page = await maintenance.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
      });
      return { data: page.data.map(presentWindow), next_cursor: page.next_cursor };
    },
  );

  app.post<{ Body: { monitor_ids?: string[]; tags?: string[] } }>(
    '/api/v1/maintenance-windows/preview',
    {
      config: { scope: 'maintenance:read' },
      schema: {
        tags,
        summary: 'Which monitors a window with these monitor_ids and tags would cover now',
        operationId: 'previewMaintenanceWindow',
        body: MaintenancePreviewBody,
        response: { 200: MaintenancePreview },
      },
    },
    async (request) => {
      const covered = await maintenance.preview(contextOf(request), request.body);
      return { monitors: covered.map((m) => ({ id: m.id, name: m.name, status: m.status, tags: m.tags })) };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/maintenance-windows/:id',
    {
      config: { scope: 'maintenance:read' },
      schema: {
        tags,
        summary: 'Read a maintenance window',
        operationId: 'getMaintenanceWindow',
        params: IdParams,
        response: { 200: windowRef },
      },
    },
    async (request) => presentWindow(await maintenance.get(contextOf(request), request.params.id)),
  );

  app.patch<{ Params: Static<typeof IdParams>; Body: WindowPatch }>(
    '/api/v1/maintenance-windows/:id',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags,
        summary: 'Update a maintenance window',
        operationId: 'updateMaintenanceWindow',
        params: IdParams,
        body: MaintenanceWindowPatchBody,
        response: { 200: windowRef },
      },
    },
    async (request) => presentWindow(await maintenance.update(contextOf(request), request.params.id, request.body)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/maintenance-windows/:id',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags,
        summary: 'Delete a maintenance window',
        operationId: 'deleteMaintenanceWindow',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await maintenance.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/maintenance-windows/:id/end',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags,
        summary: 'End the occurrence in progress now',
        description: '409 `conflict` when no occurrence is in progress. `maintenance_ended` follows within seconds.',
        operationId: 'endMaintenanceWindow',
        params: IdParams,
        response: { 200: windowRef },
      },
    },
    async (request) => presentWindow(await maintenance.end(contextOf(request), request.params.id)),
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/monitors/:id/maintenance',
    {
      config: { scope: 'maintenance:read' },
      schema: {
        tags,
        summary: "A monitor's maintenance window in progress, else its next one",
        operationId: 'getMonitorMaintenance',
        params: IdParams,
        response: { 200: MonitorMaintenance },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const monitor = await monitors.get(ctx, request.params.id);
      const next = await maintenance.nextFor(ctx, monitor);
      const now = ctx.clock.now();
      return {
        next: next && {
          maintenance_window_id: next.window.id,
          name: next.window.name,
          starts_at: toIso(next.occurrence.start),
          ends_at: toIso(next.occurrence.end),
          active: next.occurrence.start <= now,
        },
      };
    },
  );
}
