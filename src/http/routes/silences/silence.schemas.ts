import { Type } from '@sinclair/typebox';
import { SILENCE_COMMENT_MAX, SILENCE_MATCHER_MAX, SILENCEABLE_EVENTS } from '../../../modules/silences/index.ts';
import { ListOf, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const listOf = (item: ReturnType<typeof Type.String>, what: string, description: string) =>
  Type.Array(item, {
    maxItems: SILENCE_MATCHER_MAX,
    uniqueItems: true,
    description,
    'x-issues': {
      type: `must be an array of ${what}`,
      maxItems: `must list at most ${SILENCE_MATCHER_MAX} ${what}`,
      uniqueItems: 'must not repeat an entry',
    },
  });
const idOf = (prefix: string, what: string) =>
  Type.String({
    pattern: `^${prefix}_[0-9a-z]{26}$`,
    'x-issues': { type: `must be a ${what} id`, pattern: `must be a ${what} id` },
  });

const Matchers = Type.Object(
  {
    monitor_ids: Type.Optional(
      listOf(idOf('mon', 'monitor'), 'monitor ids', "Monitors of this organization in the key's environments."),
    ),
    tags: Type.Optional(
      listOf(
        Type.String({ minLength: 1, maxLength: 100 }),
        'tags',
        'Monitors carrying any of these tags (also ones tagged later).',
      ),
    ),
    events: Type.Optional(
      listOf(
        Type.String({ minLength: 1, maxLength: 64 }),
        'event names',
        `Alert events: ${SILENCEABLE_EVENTS.join(', ')}.`,
      ),
    ),
    destination_ids: Type.Optional(
      listOf(idOf('dst', 'destination'), 'destination ids', 'Destinations of this organization.'),
    ),
  },
  {
    description:
      'Each list given must match (a monitor, a tag, an event, a destination); within a list any entry matches. ' +
      'At least one list is not empty.',
    'x-issues': { additionalProperties: 'is not a known matcher', type: 'must be a JSON object' },
  },
);

const commentIssue = `must be a non-empty string of at most ${SILENCE_COMMENT_MAX} characters`;
const comment = Type.String({
  minLength: 1,
  maxLength: SILENCE_COMMENT_MAX,
  description: 'Why (shown with the silence).',
  'x-issues': { type: commentIssue, minLength: commentIssue, maxLength: commentIssue },
});
const unknownField = { additionalProperties: 'is not a known field of silences', type: 'must be a JSON object' };

export const SilenceRecord = Type.Object(
  {
    id: Type.String({ description: 'sil_…' }),
    matchers: Type.Object(
      {
        monitor_ids: Type.Array(Type.String(), { description: 'Monitors held (empty: any).' }),
        tags: Type.Array(Type.String(), { description: 'Monitors carrying any of these tags (empty: any).' }),
        events: Type.Array(Type.String(), { description: 'Alert events held (empty: any).' }),
        destination_ids: Type.Array(Type.String(), { description: 'Destinations held (empty: any).' }),
      },
      { description: 'Each non-empty list must match; within a list any entry matches.' },
    ),
    starts_at: Timestamp(),
    ends_at: Timestamp(),
    comment: Type.String(),
    created_by: Type.String({ description: 'The user or key that created it.' }),
    state: Type.Union([Type.Literal('pending'), Type.Literal('active'), Type.Literal('ended')], {
      description: 'pending: starts later; active: holding notifications now; ended.',
    }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'Silence', title: 'Silence' },
);

export const SilenceList = ListOf(Type.Ref(SilenceRecord), 'SilenceList');
export const SilenceListQuery = Type.Object({
  ...PageQuery,
  include_ended: Type.Optional(Type.Boolean({ description: 'Also list ended silences (default false).' })),
});

export const SilenceCreateBody = Type.Object(
  {
    matchers: Matchers,
    starts_at: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now.' })),
    ends_at: Type.String({ format: 'date-time', description: 'After starts_at and in the future.' }),
    comment,
  },
  { 'x-issues': unknownField, description: 'Unknown fields are rejected.' },
);

export const MuteBody = Type.Object(
  {
    minutes: Type.Integer({
      minimum: 1,
      maximum: 43_200,
      description: 'How long, from now (1 minute to 30 days).',
      'x-issues': {
        type: 'must be a whole number of minutes from 1 to 43200',
        minimum: 'must be a whole number of minutes from 1 to 43200',
        maximum: 'must be a whole number of minutes from 1 to 43200',
      },
    }),
    comment: Type.Optional(comment),
  },
  { 'x-issues': { additionalProperties: 'is not a known field', type: 'must be a JSON object' } },
);
