import type { Frequency } from './scheduled-report.schedule.ts';

export const REPORT_TYPES = [
  'availability',
  'performance',
  'sla',
  'incidents',
  'intelligence',
  'monitor_health',
  'custom',
] as const;
export type ScheduledReportType = (typeof REPORT_TYPES)[number];

export const LAST_STATUSES = ['never_run', 'delivered', 'partially_delivered', 'failed'] as const;
export type LastStatus = (typeof LAST_STATUSES)[number];

export type RunStatus = 'delivering' | Exclude<LastStatus, 'never_run'>;

export interface ScheduledReport {
  id: string;
  organizationId: string;
  reportType: ScheduledReportType;
  customReportId: string | null;
  frequency: Frequency;
  dayOfWeek: number | null;
  dayOfMonth: number | null;
  timeOfDay: string;
  timezone: string;
  destinationIds: string[];
  enabled: boolean;
  nextRunAt: number;
  lastRunAt: number | null;
  lastStatus: LastStatus;
  /** Run-now requests not yet answered (each POST /{id}/run is one run). */
  runRequests: number;
  createdByUserId: string | null;
  createdByKeyId: string;
  environments: string[];
  createdAt: number;
  updatedAt: number;
}

export interface ScheduledReportRun {
  eventId: string;
  scheduledReportId: string;
  organizationId: string;
  manual: boolean;
  periodFrom: number;
  periodTo: number;
  destinationCount: number;
  status: RunStatus;
  startedAt: number;
  endedAt: number | null;
}

export const FILE_KINDS = ['json', 'csv', 'pdf'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export interface ReportFile {
  id: string;
  organizationId: string;
  scheduledReportId: string;
  eventId: string;
  kind: FileKind;
  filename: string;
  contentType: string;
  sizeBytes: number;
  body: Buffer;
  tokenHash: string;
  expiresAt: number;
  createdAt: number;
}
