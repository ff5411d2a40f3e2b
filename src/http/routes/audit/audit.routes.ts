import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AuditEntry, AuditFilter, AuditLog } from '../../../modules/audit/index.ts';
import { toIso } from '../../../platform/clock.ts';
import { actorOf } from '../../plugins/auth.plugin.ts';
import { fileResponse } from '../../schemas/files.schemas.ts';
import { AuditEntryRecord, AuditExportQuery, AuditList, AuditListQuery } from './audit.schemas.ts';

const tags = ['audit'];

function filterOf(query: Static<typeof AuditExportQuery>): AuditFilter {
  return {
    actorId: query.actor_id,
    action: query.action,
    targetType: query.target_type,
    targetId: query.target_id,
    from: query.from === undefined ? undefined : Date.parse(query.from),
    to: query.to === undefined ? undefined : Date.parse(query.to),
  };
}

function presentEntry(e: AuditEntry) {
  return {
    id: e.id,
    at: toIso(e.at),
    actor: e.actor,
    action: e.action,
    target: e.target,
    changes: e.changes,
    ip: e.ip,
    request_id: e.requestId,
  };
}

/** The audit log (DECISIONS §21): owners and admins, scope audit:read (an admin-only scope: checkRole). */
export function registerAuditRoutes(app: FastifyInstance, deps: { audit: AuditLog }): void {
  app.addSchema(AuditEntryRecord);
  app.addSchema(AuditList);

  app.get<{ Querystring: Static<typeof AuditListQuery> }>(
    '/api/v1/audit-log',
    {
      config: { scope: 'audit:read' },
      schema: {
        tags,
        summary: 'Every change, sign-in and key event of the organization, newest first (owner/admin)',
        operationId: 'listAuditLog',
        querystring: AuditListQuery,
        response: { 200: Type.Ref(AuditList) },
      },
    },
    async (request) => {
      const { limit, cursor, ...filter } = request.query;
      const page = await deps.audit.list(actorOf(request).organizationId, filterOf(filter), {
        limit: limit ?? 50,
        cursor,
      });
      return { data: page.data.map(presentEntry), next_cursor: page.next_cursor };
    },
  );

  app.get<{ Querystring: Static<typeof AuditExportQuery> }>(
    '/api/v1/audit-log/export',
    {
      config: { scope: 'audit:read' },
      schema: {
        tags,
        summary: 'The audit log as CSV, newest first, with the list’s filters (owner/admin)',
        description:
          '`text/csv; charset=utf-8`, UTF-8 with a byte-order mark, RFC 4180; `changes` is the JSON of the list. ' +
          "A cell starting with =, +, -, @, a tab or a carriage return is prefixed with ' so spreadsheets keep it text.",
        operationId: 'exportAuditLog',
        querystring: AuditExportQuery,
        response: { 200: fileResponse('The audit log as CSV.', { csv: true }) },
      },
    },
    async (request, reply) => {
      const stream = Readable.from(deps.audit.exportCsv(actorOf(request).organizationId, filterOf(request.query)));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(stream);
    },
  );
}
