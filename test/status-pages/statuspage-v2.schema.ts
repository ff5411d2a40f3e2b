/**
 * Atlassian Statuspage's public v2 API shapes, written from its documentation (not from Tocsin's code): the API page
 * each hosted Statuspage serves (e.g. https://status.chargebee.com/api, "Summary", "Status", "Components"), which
 * documents `GET /api/v2/summary.json` as `page {id, name, url, time_zone, updated_at}`, `status {indicator,
 * description}` (indicator none, minor, major or critical), `components` (status operational,
 * degraded_performance, partial_outage or major_outage; under_maintenance while a maintenance runs), unresolved
 * `incidents` with `incident_updates`, and upcoming or in-progress `scheduled_maintenances` (`scheduled_for`,
 * `scheduled_until`). Field lists as in the statuspage.io client's typings (Component, Page, Incident) and
 * MongoDB's documentation of its Statuspage-hosted GET /summary.json.
 */
const dateTime = { type: 'string', format: 'date-time' } as const;
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const componentStatus = {
  enum: ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance'],
} as const;

const page = {
  type: 'object',
  required: ['id', 'name', 'url', 'time_zone', 'updated_at'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    time_zone: { type: 'string' },
    updated_at: dateTime,
  },
} as const;

const component = {
  type: 'object',
  required: [
    'id',
    'name',
    'status',
    'created_at',
    'updated_at',
    'position',
    'description',
    'showcase',
    'start_date',
    'group_id',
    'page_id',
    'group',
    'only_show_if_degraded',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: componentStatus,
    created_at: dateTime,
    updated_at: dateTime,
    position: { type: 'integer' },
    description: { type: ['string', 'null'] },
    showcase: { type: 'boolean' },
    start_date: { type: ['string', 'null'], format: 'date' },
    group_id: { type: ['string', 'null'] },
    page_id: { type: 'string' },
    group: { type: 'boolean' },
    only_show_if_degraded: { type: 'boolean' },
  },
} as const;

const incidentUpdate = {
  type: 'object',
  required: ['id', 'status', 'body', 'incident_id', 'created_at', 'updated_at', 'display_at'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string' },
    body: { type: 'string' },
    incident_id: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
    display_at: dateTime,
    affected_components: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        required: ['code', 'name', 'old_status', 'new_status'],
        properties: {
          code: { type: 'string' },
          name: { type: 'string' },
          old_status: componentStatus,
          new_status: componentStatus,
        },
      },
    },
    deliver_notifications: { type: 'boolean' },
    custom_tweet: { type: ['string', 'null'] },
    tweet_id: { type: ['string', 'null'] },
  },
} as const;

const incidentRequired = [
  'id',
  'name',
  'status',
  'created_at',
  'updated_at',
  'monitoring_at',
  'resolved_at',
  'impact',
  'shortlink',
  'started_at',
  'page_id',
  'incident_updates',
  'components',
] as const;
const incidentProperties = {
  id: { type: 'string' },
  name: { type: 'string' },
  created_at: dateTime,
  updated_at: dateTime,
  monitoring_at: nullableDateTime,
  resolved_at: nullableDateTime,
  shortlink: { type: 'string' },
  started_at: dateTime,
  page_id: { type: 'string' },
  incident_updates: { type: 'array', items: incidentUpdate },
  components: { type: 'array', items: component },
} as const;

const incident = {
  type: 'object',
  required: incidentRequired,
  properties: {
    ...incidentProperties,
    status: { enum: ['investigating', 'identified', 'monitoring', 'resolved', 'postmortem'] },
    impact: { enum: ['none', 'minor', 'major', 'critical'] },
  },
} as const;

const scheduledMaintenance = {
  type: 'object',
  required: [...incidentRequired, 'scheduled_for', 'scheduled_until'],
  properties: {
    ...incidentProperties,
    status: { enum: ['scheduled', 'in_progress', 'verifying', 'completed'] },
    impact: { enum: ['none', 'minor', 'major', 'critical', 'maintenance'] },
    scheduled_for: dateTime,
    scheduled_until: dateTime,
  },
} as const;

const status = {
  type: 'object',
  required: ['indicator', 'description'],
  properties: { indicator: { enum: ['none', 'minor', 'major', 'critical'] }, description: { type: 'string' } },
} as const;

export const STATUSPAGE_SUMMARY_SCHEMA = {
  type: 'object',
  required: ['page', 'status', 'components', 'incidents', 'scheduled_maintenances'],
  properties: {
    page,
    status,
    components: { type: 'array', items: component },
    incidents: { type: 'array', items: incident },
    scheduled_maintenances: { type: 'array', items: scheduledMaintenance },
  },
} as const;

export const STATUSPAGE_STATUS_SCHEMA = {
  type: 'object',
  required: ['page', 'status'],
  properties: { page, status },
} as const;

export const STATUSPAGE_COMPONENTS_SCHEMA = {
  type: 'object',
  required: ['page', 'components'],
  properties: { page, components: { type: 'array', items: component } },
} as const;
