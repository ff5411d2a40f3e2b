import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type } from '@sinclair/typebox';
import { SLA_MONITORS_MAX, SLA_NAME_MAX, SLA_PERIODS } from '../../../modules/reports/index.ts';
import { ListOf, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const percentIssue = 'must be a number strictly between 0 and 100 with at most 3 decimals (e.g. 99.95)';
/** At most 3 decimals is checked after the schema, in the service (a float's multipleOf is not exact). */
const targetPercent = Type.Number({
  exclusiveMinimum: 0,
  exclusiveMaximum: 100,
  description: 'Strictly between 0 and 100, at most 3 decimals (e.g. 99.95).',
  'x-issues': { type: percentIssue, exclusiveMinimum: percentIssue, exclusiveMaximum: percentIssue },
});
const monitorIds = Type.Array(
  Type.String({
    pattern: '^mon_[0-9a-z]{26}$',
    'x-issues': { type: 'must be a monitor id', pattern: 'must be a monitor id' },
  }),
  {
    minItems: 1,
    maxItems: SLA_MONITORS_MAX,
    uniqueItems: true,
    description: 'Monitors of this organization in the key’s environments; judged together (any one down = down).',
    'x-issues': {
      type: `must be an array of 1 to ${SLA_MONITORS_MAX} monitor ids`,
      minItems: `must be an array of 1 to ${SLA_MONITORS_MAX} monitor ids`,
      maxItems: `must be an array of 1 to ${SLA_MONITORS_MAX} monitor ids`,
    },
  },
);
const nameIssue = `must be a non-empty string of at most ${SLA_NAME_MAX} characters`;
const name = Type.String({
  minLength: 1,
  maxLength: SLA_NAME_MAX,
  pattern: '\\S',
  description: 'Trimmed.',
  'x-issues': { type: nameIssue, minLength: nameIssue, maxLength: nameIssue, pattern: nameIssue },
});
const period = Type.Unsafe<(typeof SLA_PERIODS)[number]>({
  type: 'string',
  enum: [...SLA_PERIODS],
  'x-issues': { type: `must be one of ${SLA_PERIODS.join(', ')}`, enum: `must be one of ${SLA_PERIODS.join(', ')}` },
});
const unknownField = { additionalProperties: 'is not a known field of SLA targets', type: 'must be a JSON object' };

export const SlaTargetRecord = Type.Object(
  {
    id: Type.String({ description: 'sla_…' }),
    name: Type.String(),
    monitor_ids: Type.Array(Type.String()),
    target_percent: Type.Number(),
    period: lit(SLA_PERIODS),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    ...MANAGED_FIELDS,
  },
  { $id: 'SlaTarget', title: 'SlaTarget' },
);

export const SlaTargetList = ListOf(Type.Ref(SlaTargetRecord), 'SlaTargetList');
export const SlaTargetListQuery = Type.Object({ ...PageQuery });

export const SlaTargetCreateBody = Type.Object(
  {
    name,
    monitor_ids: monitorIds,
    target_percent: targetPercent,
    period,
  },
  { 'x-issues': unknownField, description: 'Unknown fields are rejected.' },
);

export const SlaTargetPatchBody = Type.Object(
  {
    name: Type.Optional(name),
    monitor_ids: Type.Optional(monitorIds),
    target_percent: Type.Optional(targetPercent),
    period: Type.Optional(period),
  },
  { 'x-issues': unknownField, description: 'Fields to change; monitor_ids replaces the list.' },
);
