import { Type } from '@sinclair/typebox';
import { NOTICE_IMPACTS, NOTICE_KINDS, NOTICE_STATUSES } from '../../../modules/status-pages/index.ts';
import { ListOf, Nullable, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

const kind = lit(NOTICE_KINDS, {
  'x-issue': 'must be incident, maintenance or info',
  description: 'incident: something is wrong; maintenance: planned work; info: anything else readers should know.',
});
const impact = lit(NOTICE_IMPACTS, {
  'x-issue': 'must be none, minor, major or critical',
  description: 'How badly readers are affected; a page lists open notices most severe first.',
});
const status = Type.Union(
  [
    ...NOTICE_STATUSES.map((s) => Type.Literal(s)),
    Type.Null({ description: 'Open (maintenance and info notices only).' }),
  ],
  {
    'x-issue': 'must be investigating, identified, monitoring, resolved or null',
    description:
      'Incidents: investigating → identified → monitoring → resolved. Maintenance and info notices: null (open) or resolved (ended).',
  },
);
const title = Type.String({
  maxLength: 200,
  pattern: '\\S',
  'x-issue': 'must be a non-empty string of at most 200 characters',
});
const markdown = (maxLength: number, description: string) =>
  Type.String({ maxLength, 'x-issue': `must be Markdown of at most ${maxLength} characters`, description });
const affectedMonitorIds = Type.Array(
  Type.String({ pattern: '^mon_[0-9a-z]{26}$', 'x-issue': 'must be a monitor id (mon_…)' }),
  {
    maxItems: 100,
    description:
      'Monitors of this organization the key can see, each once. The public page names those that are on the page.',
  },
);
const incidentId = Nullable(
  Type.String({
    pattern: '^inc_[0-9a-z]{26}$',
    'x-issue': 'must be an incident id (inc_…) or null',
    description: 'The incident of this organization the notice tells of.',
  }),
);
const published = Type.Boolean({
  'x-issue': 'must be true or false',
  description:
    'false: a draft, shown to nobody outside the organization and sent to no subscriber. Publishing tells subscribers once.',
});
const postmortemPublished = Type.Boolean({
  'x-issue': 'must be true or false',
  description: 'true: the public page shows the postmortem (sets postmortem_published_at); false hides it again.',
});

export const NoticeUpdateRecord = Type.Object({
  id: Type.String({ description: 'ntu_…' }),
  status: Nullable(lit(NOTICE_STATUSES)),
  body: Type.String({ description: 'Markdown.' }),
  created_at: Timestamp(),
});

export const NoticeRecord = Type.Object(
  {
    id: Type.String({ description: 'ntc_…' }),
    status_page_id: Type.String(),
    kind: lit(NOTICE_KINDS),
    title: Type.String(),
    impact: lit(NOTICE_IMPACTS),
    status: Nullable(lit(NOTICE_STATUSES)),
    affected_monitor_ids: Type.Array(Type.String()),
    incident_id: Nullable(Type.String()),
    published: Type.Boolean(),
    published_at: NullableTimestamp('When it was (last) published; null while a draft.'),
    resolved_at: NullableTimestamp('When its status became resolved; null while open.'),
    updates: Type.Array(NoticeUpdateRecord, { description: 'The timeline, oldest first.' }),
    postmortem: Nullable(Type.String({ description: 'Markdown.' })),
    postmortem_published_at: NullableTimestamp('When the postmortem was published; null: not shown publicly.'),
    automatic: Type.Boolean({ description: 'Drafted by Tocsin from a monitor incident (auto_notices).' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'StatusPageNotice', title: 'StatusPageNotice' },
);

export const NoticeList = ListOf(Type.Ref(NoticeRecord), 'StatusPageNoticeList');
export const NoticeListQuery = Type.Object({ ...PageQuery });

export const NoticeParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  nid: Type.String({ minLength: 1, maxLength: 64 }),
});

export const NoticeCreateBody = Type.Object(
  {
    kind,
    title,
    impact: Type.Optional(impact),
    status: Type.Optional(status),
    affected_monitor_ids: Type.Optional(affectedMonitorIds),
    incident_id: Type.Optional(incidentId),
    published: Type.Optional(published),
    body: Type.Optional(markdown(20_000, 'The first update (Markdown); optional.')),
    postmortem: Type.Optional(Nullable(markdown(100_000, 'Markdown.'))),
    postmortem_published: Type.Optional(postmortemPublished),
  },
  {
    description:
      'Defaults: impact minor for incidents, none otherwise; status investigating for incidents, null otherwise; published false. Unknown fields are rejected.',
  },
);

export const NoticePatchBody = Type.Object(
  {
    kind: Type.Optional(kind),
    title: Type.Optional(title),
    impact: Type.Optional(impact),
    status: Type.Optional(status),
    affected_monitor_ids: Type.Optional(affectedMonitorIds),
    incident_id: Type.Optional(incidentId),
    published: Type.Optional(published),
    postmortem: Type.Optional(Nullable(markdown(100_000, 'Markdown.'))),
    postmortem_published: Type.Optional(postmortemPublished),
  },
  { description: 'Fields to change. Unknown fields are rejected.' },
);

export const NoticeUpdateBody = Type.Object(
  {
    body: Type.String({
      minLength: 1,
      maxLength: 20_000,
      'x-issue': 'must be Markdown of 1 to 20000 characters',
      description: 'What readers are told (Markdown: no raw HTML; links http, https and mailto only).',
    }),
    status: Type.Optional(status),
  },
  { description: "The update's status becomes the notice's (absent: the notice keeps its status)." },
);
