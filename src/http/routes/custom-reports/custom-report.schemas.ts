import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type } from '@sinclair/typebox';
import {
  CUSTOM_REPORT_NAME_MAX,
  CUSTOM_REPORT_SHARED_MAX,
  CUSTOM_REPORT_WIDGETS_MAX,
  PERIOD_PRESETS,
  VISIBILITIES,
  WIDGET_KINDS,
  WIDGET_MONITORS_MAX,
  WIDGET_TAGS_MAX,
  WIDGET_TITLE_MAX,
} from '../../../modules/reports/index.ts';
import { ListOf, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const oneOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({
    type: 'string',
    enum: [...values],
    ...(description !== undefined && { description }),
    'x-issues': { type: `must be one of ${values.join(', ')}`, enum: `must be one of ${values.join(', ')}` },
  });

const text = (max: number, what: string, description?: string) => {
  const issue = `must be a non-empty ${what} of at most ${max} characters`;
  return Type.String({
    minLength: 1,
    maxLength: max,
    pattern: '\\S',
    ...(description !== undefined && { description }),
    'x-issues': { type: issue, minLength: issue, maxLength: issue, pattern: issue },
  });
};

/** Ids of one kind, distinct; `minItems` 1 where an empty list would read as "all" and so must be left out instead. */
const idList = (prefix: string, what: string, max: number, description: string, minItems = 0) => {
  const issue = `must be an array of ${minItems} to ${max} ids (leave it out for all)`;
  return Type.Array(
    Type.String({
      pattern: `^${prefix}_[0-9a-z]{26}$`,
      'x-issues': { type: `must be ${what}`, pattern: `must be ${what}` },
    }),
    {
      minItems,
      maxItems: max,
      uniqueItems: true,
      description,
      'x-issues': { type: issue, minItems: issue, maxItems: issue },
    },
  );
};

const RFC3339 = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$';
const instant = (description: string) =>
  Type.String({
    pattern: RFC3339,
    maxLength: 40,
    description,
    'x-issues': { type: 'must be an RFC 3339 time', pattern: 'must be an RFC 3339 time such as 2026-11-01T00:00:00Z' },
  });

const Period = Type.Union(
  [
    oneOf(PERIOD_PRESETS, 'A preset, resolved at each render (DECISIONS §8).'),
    Type.Object(
      { from: instant('Inclusive.'), to: instant('Exclusive; after `from`, at most 400 days later.') },
      { additionalProperties: false, 'x-issues': { additionalProperties: 'is not a known field of a period' } },
    ),
  ],
  { description: 'A preset name, or a fixed range `{from, to}`.' },
);

const timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone of days and calendar periods. Default UTC.',
  'x-issues': { type: 'must be an IANA time zone such as Europe/Berlin' },
});

const WidgetOptions = Type.Object(
  {
    sla_target_ids: Type.Optional(
      idList('sla', 'an SLA target id', 100, 'sla widgets only: the targets shown (default: every target).', 1),
    ),
  },
  {
    additionalProperties: false,
    description: 'Per-kind settings; only sla widgets take one (sla_target_ids).',
    'x-issues': { additionalProperties: 'is not a known widget option', type: 'must be a JSON object' },
  },
);

const Widget = Type.Object(
  {
    kind: oneOf(WIDGET_KINDS),
    title: text(
      WIDGET_TITLE_MAX,
      'string',
      'The section’s heading; the `section` column in CSV. Trimmed; distinct within the report.',
    ),
    monitor_ids: Type.Optional(
      idList(
        'mon',
        'a monitor id',
        WIDGET_MONITORS_MAX,
        'Monitors of this organization in the key’s environments (default: every monitor the viewer sees).',
        1,
      ),
    ),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: WIDGET_TAGS_MAX,
        uniqueItems: true,
        description: 'Monitors carrying at least one of these tags.',
      }),
    ),
    options: Type.Optional(WidgetOptions),
  },
  {
    additionalProperties: false,
    'x-issues': { additionalProperties: 'is not a known field of a widget', type: 'must be a JSON object' },
  },
);

const widgetsIssue = `must be an array of 1 to ${CUSTOM_REPORT_WIDGETS_MAX} widgets`;
const widgets = Type.Array(Widget, {
  minItems: 1,
  maxItems: CUSTOM_REPORT_WIDGETS_MAX,
  'x-issues': { type: widgetsIssue, minItems: widgetsIssue, maxItems: widgetsIssue },
});

const visibility = oneOf(
  VISIBILITIES,
  'private: the owner only; organization: every member; shared: the owner and shared_with_user_ids. ' +
    'Default private (organization for a service account’s key, which can make no other).',
);

const sharedWith = idList(
  'usr',
  'a user id',
  CUSTOM_REPORT_SHARED_MAX,
  'Members of the organization who see a `shared` report (only with visibility shared).',
);

const unknownField = { additionalProperties: 'is not a known field of custom reports', type: 'must be a JSON object' };

export const CustomReportRecord = Type.Object(
  {
    id: Type.String({ description: 'crp_…' }),
    name: Type.String(),
    period: Type.Union([
      Type.Unsafe<string>({ type: 'string', enum: [...PERIOD_PRESETS] }),
      Type.Object({ from: Type.String(), to: Type.String() }),
    ]),
    timezone: Type.String(),
    widgets: Type.Array(
      Type.Object({
        kind: Type.Unsafe<string>({ type: 'string', enum: [...WIDGET_KINDS] }),
        title: Type.String(),
        monitor_ids: Type.Optional(Type.Array(Type.String())),
        tags: Type.Optional(Type.Array(Type.String())),
        options: Type.Optional(Type.Object({ sla_target_ids: Type.Optional(Type.Array(Type.String())) })),
      }),
    ),
    visibility: Type.Unsafe<string>({ type: 'string', enum: [...VISIBILITIES] }),
    shared_with_user_ids: Type.Array(Type.String()),
    owner_id: Type.String({ description: 'The user who created it (or the service account whose key did).' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    ...MANAGED_FIELDS,
  },
  { $id: 'CustomReport', title: 'CustomReport' },
);

export const CustomReportList = ListOf(Type.Ref(CustomReportRecord), 'CustomReportList');
export const CustomReportListQuery = Type.Object({ ...PageQuery });

export const CustomReportCreateBody = Type.Object(
  {
    name: text(CUSTOM_REPORT_NAME_MAX, 'string', 'Trimmed.'),
    period: Period,
    timezone: Type.Optional(timezone),
    widgets,
    visibility: Type.Optional(visibility),
    shared_with_user_ids: Type.Optional(sharedWith),
  },
  { 'x-issues': unknownField, description: 'Unknown fields are rejected.' },
);

export const CustomReportPatchBody = Type.Object(
  {
    name: Type.Optional(text(CUSTOM_REPORT_NAME_MAX, 'string', 'Trimmed.')),
    period: Type.Optional(Period),
    timezone: Type.Optional(timezone),
    widgets: Type.Optional(widgets),
    visibility: Type.Optional(visibility),
    shared_with_user_ids: Type.Optional(sharedWith),
  },
  {
    'x-issues': unknownField,
    description:
      'Fields to change; widgets and shared_with_user_ids replace the lists. Leaving visibility shared empties ' +
      'shared_with_user_ids.',
  },
);

export const RenderQuery = Type.Object({
  format: Type.Optional(oneOf(['json', 'csv', 'pdf'] as const, 'Default json.')),
});

const Section = Type.Object({
  title: Type.String(),
  kind: Type.Unsafe<string>({ type: 'string', enum: [...WIDGET_KINDS] }),
  report: Nullable(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'That kind’s JSON report, as GET /reports/{kind} answers it over the widget’s monitors and tags: an ' +
          'AvailabilityReport, PerformanceReport, SlaReport, IncidentsReport, IntelligenceReport or ' +
          'MonitorHealthReport (by `kind`).',
      },
    ),
  ),
  notice: Nullable(Type.String({ description: 'Why report is null: none of the widget’s monitors can be shown.' })),
});

export const CustomReportDocumentSchema = Type.Object(
  {
    report: Type.Literal('custom'),
    id: Type.String(),
    name: Type.String(),
    period: Type.Object({
      from: Timestamp(),
      to: Timestamp('Exclusive.'),
      timezone: Type.String(),
      preset: Nullable(Type.String()),
    }),
    generated_at: Timestamp(),
    sections: Type.Array(Section, { description: 'One per widget, in order.' }),
  },
  { $id: 'CustomReportDocument', title: 'CustomReportDocument' },
);
