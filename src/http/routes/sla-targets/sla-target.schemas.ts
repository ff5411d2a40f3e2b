import { Type } from '@sinclair/typebox';
import { SLA_MONITORS_MAX, SLA_NAME_MAX, SLA_PERIODS } from '../../../modules/reports/index.ts';
import { ListOf, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const targetPercent = Type.Number({
  exclusiveMinimum: 0,
  exclusiveMaximum: 100,
  description: 'Strictly between 0 and 100, at most 3 decimals (e.g. 99.95).',
});
const monitorIds = Type.Array(Type.String(), {
  minItems: 1,
  maxItems: SLA_MONITORS_MAX,
  description: 'Monitors of this organization in the key’s environments; judged together (any one down = down).',
});

export const SlaTargetRecord = Type.Object(
  {
    id: Type.String({ description: 'sla_…' }),
    name: Type.String(),
    monitor_ids: Type.Array(Type.String()),
    target_percent: Type.Number(),
    period: lit(SLA_PERIODS),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'SlaTarget', title: 'SlaTarget' },
);

export const SlaTargetList = ListOf(Type.Ref(SlaTargetRecord), 'SlaTargetList');
export const SlaTargetListQuery = Type.Object({ ...PageQuery });

export const SlaTargetCreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: SLA_NAME_MAX }),
    monitor_ids: monitorIds,
    target_percent: targetPercent,
    period: lit(SLA_PERIODS),
  },
  { 'x-domain-validated': true, description: 'Unknown fields are rejected.' },
);

export const SlaTargetPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: SLA_NAME_MAX })),
    monitor_ids: Type.Optional(monitorIds),
    target_percent: Type.Optional(targetPercent),
    period: Type.Optional(lit(SLA_PERIODS)),
  },
  { 'x-domain-validated': true, description: 'Fields to change; monitor_ids replaces the list.' },
);
