import { Type } from '@sinclair/typebox';
import { ListOf, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const AuditFilterQuery = {
  actor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Entries of this user or key.' })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'E.g. monitor.update.' })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'E.g. monitor.' })),
  target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Entries at or after.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Entries before.' })),
};

export const AuditListQuery = Type.Object({ ...PageQuery, ...AuditFilterQuery });
export const AuditExportQuery = Type.Object(AuditFilterQuery);

export const AuditEntryRecord = Type.Object(
  {
    id: Type.String({ description: 'aud_…' }),
    at: Timestamp(),
    actor: Type.Object({
      type: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('config'), Type.Literal('system')]),
      id: Nullable(Type.String()),
      name: Type.String({ description: 'As it was when the change was made.' }),
    }),
    action: Type.String({ description: 'resource.verb, e.g. monitor.update, session.sign_in_failed.' }),
    target: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }),
    changes: Type.Record(Type.String(), Type.Array(Type.Unknown(), { minItems: 2, maxItems: 2 }), {
      description: 'Field → [before, after] (null where absent); secret values are "[redacted]".',
    }),
    ip: Nullable(Type.String()),
    request_id: Nullable(Type.String()),
  },
  { $id: 'AuditEntry', title: 'AuditEntry' },
);

export const AuditList = ListOf(Type.Ref(AuditEntryRecord), 'AuditList');
