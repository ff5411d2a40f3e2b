import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { MuteInput, Silence, SilenceInput, SilencesService } from '../../../modules/silences/index.ts';
import { toIso } from '../../../platform/clock.ts';
import type { Clock } from '../../../platform/clock.ts';
import { contextOf } from '../../request-context.ts';
import { IdParams } from '../../schemas/common.schemas.ts';
import { MuteBody, SilenceCreateBody, SilenceList, SilenceListQuery, SilenceRecord } from './silence.schemas.ts';

const tags = ['silences'];
const silenceRef = Type.Ref(SilenceRecord);

function present(s: Silence, now: number) {
  return {
    id: s.id,
    matchers: {
      monitor_ids: s.matchers.monitorIds,
      tags: s.matchers.tags,
      events: s.matchers.events,
      destination_ids: s.matchers.destinationIds,
    },
    starts_at: toIso(s.startsAt),
    ends_at: toIso(s.endsAt),
    comment: s.comment,
    created_by: s.createdBy,
    state: now >= s.endsAt ? 'ended' : now < s.startsAt ? 'pending' : 'active',
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
  };
}

/** /api/v1/silences (DECISIONS §16) and POST /monitors/{id}/mute. */
export function registerSilenceRoutes(app: FastifyInstance, deps: { silences: SilencesService; clock: Clock }): void {
  const { silences, clock } = deps;
  for (const schema of [SilenceRecord, SilenceList]) app.addSchema(schema);
  const show = (s: Silence) => present(s, clock.now());

  app.post<{ Body: SilenceInput }>(
    '/api/v1/silences',
    {
      config: {
        scope: 'maintenance:write',
        bodyRules: (body, request) => silences.bodyIssues(contextOf(request), body),
      },
      schema: {
        tags,
        summary: 'Create a silence',
        description:
          'Holds back the notifications it matches from starts_at to ends_at: each held delivery is recorded with ' +
          'outcome `silenced`; incidents open and count as usual.',
        operationId: 'createSilence',
        body: SilenceCreateBody,
        response: { 201: silenceRef },
      },
    },
    async (request, reply) => reply.code(201).send(show(await silences.create(contextOf(request), request.body))),
  );

  app.get<{ Querystring: Static<typeof SilenceListQuery> }>(
    '/api/v1/silences',
    {
      config: { scope: 'maintenance:read' },
      schema: {
        tags,
        summary: 'List silences (newest first)',
        operationId: 'listSilences',
        querystring: SilenceListQuery,
        response: { 200: Type.Ref(SilenceList) },
      },
    },
    async (request) => {
      const { limit, cursor, include_ended: includeEnded } = request.query;
      const page = await silences.list(contextOf(request), {
        limit: limit ?? 50,
        ...(cursor !== undefined && { cursor }),
        includeEnded: includeEnded ?? false,
      });
      return { data: page.data.map(show), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/api/v1/silences/:id',
    {
      config: { scope: 'maintenance:read' },
      schema: {
        tags,
        summary: 'Read a silence',
        operationId: 'getSilence',
        params: IdParams,
        response: { 200: silenceRef },
      },
    },
    async (request) => show(await silences.get(contextOf(request), request.params.id)),
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/api/v1/silences/:id/end',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags,
        summary: 'End a silence now (expire it early)',
        operationId: 'endSilence',
        params: IdParams,
        response: { 200: silenceRef },
      },
    },
    async (request) => show(await silences.end(contextOf(request), request.params.id)),
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/v1/silences/:id',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags,
        summary: 'Delete a silence',
        description: 'Deliveries it held keep their `silenced` outcome and its id.',
        operationId: 'deleteSilence',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await silences.delete(contextOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: MuteInput }>(
    '/api/v1/monitors/:id/mute',
    {
      config: { scope: 'maintenance:write' },
      schema: {
        tags, // one tag: a tool lists an operation once per tag
        summary: "Mute a monitor's notifications for N minutes",
        description: 'Creates a silence of this monitor from now (DECISIONS §16).',
        operationId: 'muteMonitor',
        params: IdParams,
        body: MuteBody,
        response: { 201: silenceRef },
      },
    },
    async (request, reply) =>
      reply.code(201).send(show(await silences.mute(contextOf(request), request.params.id, request.body))),
  );
}
