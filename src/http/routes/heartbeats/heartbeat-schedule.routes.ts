import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { nextExpectedPing } from '../../../modules/checks/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { bodyShapeDetails, contextOf } from '../../request-context.ts';
import { HeartbeatSchedulePreview, HeartbeatSchedulePreviewBody } from '../monitors/monitor.schemas.ts';
import type { AppServices } from '../../app.deps.ts';

/** How many expected pings the preview lists. */
const AHEAD = 3;

/**
 * What a heartbeat schedule means before it is saved: judged by the save's own rules (one 422 envelope, fields
 * named `config.schedule.*` as a save names them) and run forward by the engine's own next-ping function, so the
 * web app's form needs no cron code of its own and never disagrees with what the engine will expect.
 */
export function registerHeartbeatScheduleRoutes(app: FastifyInstance, services: AppServices): void {
  app.addSchema(HeartbeatSchedulePreview);
  app.post<{ Body: Record<string, unknown> }>(
    '/api/v1/monitors/heartbeat-schedule-preview',
    {
      // It writes nothing: whoever may read monitors may try a schedule (as the maintenance window preview).
      config: { scope: 'monitors:read' },
      attachValidation: true,
      schema: {
        tags: ['heartbeats'],
        summary: "A heartbeat schedule's next expected pings, or the 422 a save of it would answer",
        description:
          'The body is `config.schedule` and `config.grace_seconds` as a heartbeat monitor holds them. The answer ' +
          'lists the next 3 expected pings from now (before the grace). Problems are named as a save names them ' +
          "(`config.schedule.cron`, `config.schedule.timezone`, `config.schedule.every_seconds`): the plan's " +
          'interval floor, a cron expression that does not parse or never fires, an unknown time zone.',
        operationId: 'previewHeartbeatSchedule',
        body: HeartbeatSchedulePreviewBody,
        response: { 200: Type.Ref(HeartbeatSchedulePreview) },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      // The schema's details name the body's own fields; the body is a monitor's config, so they are named as such.
      const shape = bodyShapeDetails(request).map((d) =>
        d.field === 'body' ? d : { ...d, field: `config.${d.field}` },
      );
      const body = (request.body ?? {}) as Record<string, unknown>;
      const config = services.monitors.judgeHeartbeatSchedule(ctx, body, shape);
      const target = { interval_seconds: 0, config };
      const next: string[] = [];
      let at: number | null = ctx.clock.now();
      while (next.length < AHEAD && at !== null) {
        at = nextExpectedPing(target, at);
        if (at !== null) next.push(toIso(at));
      }
      return { next, grace_seconds: config.grace_seconds };
    },
  );
}
