/**
 * The report kinds and formats, and the shapes every part of the module shares (builders, encoders, PDF layouts):
 * a leaf of the module's imports, so the renderer, the worker and the PDF layouts do not import one another.
 */
import type { ServiceContext } from '../auth/index.ts';
import type { Cell } from './report.csv.ts';
import type { KeyFigure, ReportPdf } from './report-pdf.document.ts';
import { localDate } from './report-pdf.format.ts';
import type { ReportInput } from './report.request.ts';
import type { AvailabilityReport, PerformanceReport, ReportPeriod, SlaReport } from './report.types.ts';
import type { IncidentsReport } from './incidents.report.types.ts';
import type { IntelligenceReport } from './intelligence.report.types.ts';
import type { MonitorHealthReport } from './monitor-health.types.ts';

export const REPORT_KINDS = [
  'availability',
  'performance',
  'sla',
  'incidents',
  'intelligence',
  'monitor_health',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export type ReportFormat = 'json' | 'csv' | 'pdf';

/** The JSON document of each kind. */
export interface ReportOf {
  availability: AvailabilityReport;
  performance: PerformanceReport;
  sla: SlaReport;
  incidents: IncidentsReport;
  intelligence: IntelligenceReport;
  monitor_health: MonitorHealthReport;
}

export type ReportBuilders = { [K in ReportKind]?: (ctx: ServiceContext, input: ReportInput) => Promise<ReportOf[K]> };

export interface CsvTable<R> {
  columns: readonly string[];
  rows: (report: R) => Cell[][];
}

/** How a kind draws itself: the key figures (first page, or a section's head) and the body (charts, tables). */
export interface PdfLayout<R> {
  title: string;
  figures: (report: R) => KeyFigure[];
  body: (pdf: ReportPdf, report: R) => void;
}

export interface RenderedReport {
  contentType: string;
  filename: string;
  body: Buffer;
}

export interface ReportSection {
  title: string;
  kind: ReportKind;
  report: ReportOf[ReportKind];
}

/** `tocsin-availability-2026-10-01-2026-10-31.pdf`: the local dates of the period's first and last day. */
export function fileName(name: string, period: ReportPeriod, format: ReportFormat): string {
  const last = new Date(Date.parse(period.to) - 1).toISOString();
  const slug =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '') // the accents NFKD split off: "Für" → "Fur", not "Fu-r"
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'report';
  return `tocsin-${slug}-${localDate(period.from, period.timezone)}-${localDate(last, period.timezone)}.${format}`;
}

/**
 * How a report is written as JSON: a route's response schema, already simplified for serializing, and the schemas it
 * refers to (plain JSON data; the worker compiles fast-json-stringify from them, so the bytes are those the route's
 * own serializer writes). Without one, JSON.stringify (a scheduled run's file).
 */
export interface JsonSerializerSpec {
  schema: Record<string, unknown>;
  external: Record<string, unknown>;
}

/** One build of a report encoded in each format asked for, with what a scheduled run states of it. */
export interface BuiltFiles {
  files: Partial<Record<ReportFormat, RenderedReport>>;
  period: ReportPeriod;
  /** The report's headline figures (report.headline.ts). */
  summary: Record<string, unknown>;
}
