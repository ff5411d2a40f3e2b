import type { PeriodPreset } from './report.period.ts';

/** The six report kinds a widget can show (DECISIONS §8). */
export const WIDGET_KINDS = [
  'availability',
  'performance',
  'sla',
  'incidents',
  'intelligence',
  'monitor_health',
] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];

export const VISIBILITIES = ['private', 'organization', 'shared'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const CUSTOM_REPORT_NAME_MAX = 200;
export const CUSTOM_REPORT_WIDGETS_MAX = 50;
export const CUSTOM_REPORT_SHARED_MAX = 100;
export const WIDGET_TITLE_MAX = 200;
export const WIDGET_MONITORS_MAX = 100;
export const WIDGET_TAGS_MAX = 50;

/** What a widget may be told beyond its monitors and tags; only `sla` widgets take an option today. */
export interface WidgetOptions {
  /** sla: the targets to show (default: every target the viewer sees, narrowed by monitor_ids/tags). */
  sla_target_ids?: string[];
}

/** A widget as stored and shown (the API's field names: it is a document of the report). */
export interface CustomReportWidget {
  kind: WidgetKind;
  title: string;
  monitor_ids?: string[];
  tags?: string[];
  options?: WidgetOptions;
}

/** A preset of DECISIONS §8, or a fixed range of RFC 3339 instants. */
export type CustomReportPeriod = PeriodPreset | { from: string; to: string };

export interface CustomReport {
  id: string;
  organizationId: string;
  /** The user who created it, or the service account whose key did (its reports are `organization`). */
  ownerId: string;
  name: string;
  period: CustomReportPeriod;
  timezone: string;
  widgets: CustomReportWidget[];
  visibility: Visibility;
  sharedWithUserIds: string[];
  createdAt: number;
  updatedAt: number;
}

/** A create body as the route schema admits it. */
export interface CustomReportInput {
  name: string;
  period: CustomReportPeriod;
  timezone?: string;
  widgets: CustomReportWidget[];
  /** Default: `private` for a user's key, `organization` for a service account's. */
  visibility?: Visibility;
  shared_with_user_ids?: string[];
}

/** A PATCH body: any subset of the create fields (`widgets` and `shared_with_user_ids` replace the lists). */
export type CustomReportPatch = Partial<CustomReportInput>;
