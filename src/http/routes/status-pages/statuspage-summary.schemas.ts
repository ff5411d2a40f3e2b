import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../schemas/common.schemas.ts';

const ComponentStatus = Type.Union(
  ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'].map((s) =>
    Type.Literal(s),
  ),
);
const Indicator = Type.Union(['none', 'minor', 'major', 'critical'].map((s) => Type.Literal(s)));

const Page = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String({ format: 'uri' }),
  time_zone: Type.String(),
  updated_at: Timestamp(),
});

const Component = Type.Object({
  id: Type.String({ description: "The monitor's id." }),
  name: Type.String(),
  status: ComponentStatus,
  created_at: Timestamp(),
  updated_at: Timestamp('When its status last changed.'),
  position: Type.Integer({ minimum: 1 }),
  description: Nullable(Type.String()),
  showcase: Type.Boolean(),
  start_date: Nullable(Type.String({ format: 'date' })),
  group_id: Nullable(Type.String()),
  page_id: Type.String(),
  group: Type.Boolean(),
  only_show_if_degraded: Type.Boolean(),
});

const IncidentUpdate = Type.Object({
  id: Type.String(),
  status: Type.String(),
  body: Type.String(),
  incident_id: Type.String(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  display_at: Timestamp(),
  affected_components: Nullable(
    Type.Array(
      Type.Object({
        code: Type.String(),
        name: Type.String(),
        old_status: ComponentStatus,
        new_status: ComponentStatus,
      }),
    ),
  ),
  deliver_notifications: Type.Boolean(),
  custom_tweet: Nullable(Type.String()),
  tweet_id: Nullable(Type.String()),
});

const incidentFields = {
  id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  monitoring_at: Nullable(Timestamp()),
  resolved_at: Nullable(Timestamp()),
  impact: Type.Union(['none', 'minor', 'major', 'critical', 'maintenance'].map((s) => Type.Literal(s))),
  shortlink: Type.String(),
  started_at: Timestamp(),
  page_id: Type.String(),
  incident_updates: Type.Array(IncidentUpdate),
  components: Type.Array(Component),
};

const Status = Type.Object({ indicator: Indicator, description: Type.String() });

export const StatuspageSummary = Type.Object(
  {
    page: Page,
    status: Status,
    components: Type.Array(Component),
    incidents: Type.Array(Type.Object(incidentFields), { description: 'Unresolved incidents.' }),
    scheduled_maintenances: Type.Array(
      Type.Object({ ...incidentFields, scheduled_for: Timestamp(), scheduled_until: Timestamp() }),
      { description: 'Maintenance announced on the page: upcoming or in progress.' },
    ),
  },
  {
    $id: 'StatuspageSummary',
    title: 'StatuspageSummary',
    description: "Atlassian Statuspage's v2 summary shape (see docs/status-pages.md).",
  },
);

export const StatuspageStatus = Type.Object(
  { page: Page, status: Status },
  { $id: 'StatuspageStatus', title: 'StatuspageStatus' },
);

export const StatuspageComponents = Type.Object(
  { page: Page, components: Type.Array(Component) },
  { $id: 'StatuspageComponents', title: 'StatuspageComponents' },
);
