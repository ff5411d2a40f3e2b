/**
 * One renderer for every report and format.
 *
 *   const renderer = reports.renderer;                       // from createReports(...)
 *   const report = await renderer.build(ctx, 'availability', input);          // the JSON document (an object)
 *   const file = await renderer.encode(ctx, 'availability', report, 'pdf');   // { contentType, filename, body }
 *   const same = await renderer.render(ctx, 'availability', input, 'csv');    // build + encode in one call
 *
 * Several reports in one document (custom reports, one section per widget):
 *
 *   await renderer.renderSections(ctx, {
 *     title: 'Weekly customer report',
 *     period: { from, to, timezone, preset },            // shown on the first page and in the running header
 *     sections: [{ title: 'Uptime of the API', kind: 'availability', report }, ...],  // reports from build()
 *   }, 'pdf' | 'csv');
 *
 * CSV of sections: a first column `section` (the section's title), then the union of the sections' columns in the
 * order they first appear; a row leaves the columns of other kinds empty, so every row has the same number of
 * fields. PDF of sections: a first page with one key figure per section and a list of the sections with their
 * pages, then each section under its title with its own charts and tables, then the methodology.
 *
 * Registering a kind: its generator goes into `ReportBuilders` (createReports in reports.module.ts), its CSV table
 * into CSV_TABLES below (one line each); its PDF layout is in LAYOUTS of report-pdf.compose.ts. A kind without a
 * generator or CSV throws an internal error naming what is missing.
 *
 * Report files (routes, custom reports, scheduled runs) come from `files` and `customFiles`: one job (report-build.job.ts)
 * builds the report once and encodes each format asked for, on a report worker thread (ReportBuildPool, with its time
 * limit) or, with `reports.workers` 0, on this thread. `build`, `encode` and `renderSections` are the in-thread parts
 * the job is made of; `close()` stops the threads.
 */
import { csvDocument } from '../../platform/csv.format.ts';
import { DomainError } from '../../platform/errors.ts';
import type { ServiceContext } from '../auth/index.ts';
import {
  AVAILABILITY_CSV_COLUMNS,
  PERFORMANCE_CSV_COLUMNS,
  SLA_CSV_COLUMNS,
  availabilityRows,
  performanceRows,
  slaRows,
  type Cell,
} from './report.csv.ts';
import type { PdfComposer } from './report-pdf.pool.ts';
import type { ReportBuildPool } from './report-build.pool.ts';
import { JsonSerializers, runReportJob, type ReportJob, type ReportJobHost } from './report-build.job.ts';
import type { ReportInput } from './report.request.ts';
import type { ReportPeriod } from './report.types.ts';
import { INCIDENTS_CSV_COLUMNS, incidentsRows } from './incidents.export.ts';
import {
  INTELLIGENCE_CSV_COLUMNS,
  MONITOR_HEALTH_CSV_COLUMNS,
  intelligenceRows,
  monitorHealthRows,
} from './insight.csv.ts';
import { METHODOLOGY } from './reports.service.ts';
import {
  fileName,
  REPORT_KINDS,
  type BuiltFiles,
  type CsvTable,
  type JsonSerializerSpec,
  type RenderedReport,
  type ReportBuilders,
  type ReportFormat,
  type ReportKind,
  type ReportOf,
  type ReportSection,
} from './report.kinds.ts';

const CSV_TABLES: { [K in ReportKind]: CsvTable<ReportOf[K]> | null } = {
  availability: { columns: AVAILABILITY_CSV_COLUMNS, rows: availabilityRows },
  performance: { columns: PERFORMANCE_CSV_COLUMNS, rows: performanceRows },
  sla: { columns: SLA_CSV_COLUMNS, rows: slaRows },
  incidents: { columns: INCIDENTS_CSV_COLUMNS, rows: incidentsRows },
  intelligence: { columns: INTELLIGENCE_CSV_COLUMNS, rows: intelligenceRows },
  monitor_health: { columns: MONITOR_HEALTH_CSV_COLUMNS, rows: monitorHealthRows },
};

export interface ReportRendererDeps {
  builders: ReportBuilders;
  /** Where PDFs are drawn: on this thread (InThreadPdf; a report worker, or `reports.workers` 0) or the report pool. */
  pdf: PdfComposer;
  /** Report worker threads, where every job runs; null (`reports.workers` 0): jobs run on the calling thread. */
  isolation?: ReportBuildPool | null;
  /** The builders and encoders a job runs with on this thread (without `isolation`; jobHostOf in reports.module.ts). */
  inThread?: () => ReportJobHost;
  /** The organization's display name, for the first page. */
  organizationName: (organizationId: string) => Promise<string>;
}

export class ReportRenderer {
  private readonly deps: ReportRendererDeps;
  private readonly serializers = new JsonSerializers();
  constructor(deps: ReportRendererDeps) {
    this.deps = deps;
  }

  /** The kinds that have a generator (the others throw in build). */
  get kinds(): ReportKind[] {
    return REPORT_KINDS.filter((k) => this.deps.builders[k] !== undefined);
  }

  async build<K extends ReportKind>(ctx: ServiceContext, kind: K, input: ReportInput): Promise<ReportOf[K]> {
    const builder = this.deps.builders[kind] as
      ((ctx: ServiceContext, input: ReportInput) => Promise<ReportOf[K]>) | undefined;
    if (!builder) throw missing(`the ${kind} report has no generator registered with the ReportRenderer`);
    return builder(ctx, input);
  }

  /** One report in one format (`files` with one format). */
  async render(
    ctx: ServiceContext,
    kind: ReportKind,
    input: ReportInput,
    format: ReportFormat,
  ): Promise<RenderedReport> {
    return (await this.files(ctx, kind, input, [format])).files[format]!;
  }

  /**
   * The report built once and encoded in each of `formats`, on a report worker thread when there are threads (it
   * reads the database itself and answers the bytes; this thread only waits), else here. JSON is written with
   * `json`'s schema when given (a route's response serializer: the same bytes), else JSON.stringify. Errors of the
   * build come back as the same DomainErrors.
   */
  files(
    ctx: ServiceContext,
    kind: ReportKind,
    input: ReportInput,
    formats: readonly ReportFormat[],
    json?: () => JsonSerializerSpec,
  ): Promise<BuiltFiles> {
    return this.run(ctx, {
      type: 'report',
      kind,
      input,
      formats,
      actor: ctx.actor,
      now: ctx.clock.now(),
      json: json && formats.includes('json') ? json() : null,
    });
  }

  /** A custom report's document built once and encoded in each of `formats`, where `files` runs. */
  customFiles(
    ctx: ServiceContext,
    id: string,
    formats: readonly ReportFormat[],
    json?: () => JsonSerializerSpec,
  ): Promise<BuiltFiles> {
    return this.run(ctx, {
      type: 'custom',
      id,
      formats,
      actor: ctx.actor,
      now: ctx.clock.now(),
      json: json && formats.includes('json') ? json() : null,
    });
  }

  private run(ctx: ServiceContext, job: ReportJob): Promise<BuiltFiles> {
    if (this.deps.isolation) return this.deps.isolation.run(job);
    if (!this.deps.inThread) throw missing('reports have neither worker threads nor builders on this thread');
    return runReportJob(this.deps.inThread(), ctx, job, this.serializers);
  }

  /**
   * Starts the report worker threads and has each draw a small PDF (modules compiled, fonts parsed), so that the
   * next report costs what any other does. `tocsin serve` does not (a started thread is ~110 MiB, the first PDF
   * without it 1.3 s: docs/reports.md); benchmarks and tools that time warm reports do. Without threads there is
   * nothing to start.
   */
  async warm(): Promise<void> {
    await this.deps.isolation?.warm();
  }

  /** Report worker threads running now (0 before the first report, after idling, and without threads). */
  get threads(): number {
    return this.deps.isolation?.size ?? 0;
  }

  /** True when reports are built on report worker threads (every kind, every format). */
  isolates(_kind: ReportKind): boolean {
    return this.deps.isolation != null;
  }

  /** A built report as a file, on this thread. The organization's name is read for the PDF's first page. */
  async encode<K extends ReportKind>(
    ctx: ServiceContext,
    kind: K,
    report: ReportOf[K],
    format: ReportFormat,
  ): Promise<RenderedReport> {
    const filename = fileName(kind, report.period, format);
    if (format === 'json') {
      return { contentType: 'application/json; charset=utf-8', filename, body: Buffer.from(JSON.stringify(report)) };
    }
    if (format === 'csv') {
      const table = csvTable(kind);
      return {
        contentType: 'text/csv; charset=utf-8',
        filename,
        body: Buffer.from(csvDocument(table.columns, table.rows(report))),
      };
    }
    const body = await this.deps.pdf.compose({
      type: 'report',
      organization: await this.deps.organizationName(ctx.actor.organizationId),
      kind,
      report,
      methodology: methodologyOf(report),
    });
    return { contentType: 'application/pdf', filename, body };
  }

  /** Several built reports as one CSV (leading `section` column) or one PDF (a section each). */
  async renderSections(
    ctx: ServiceContext,
    doc: { title: string; period: ReportPeriod; generatedAt?: string; sections: readonly ReportSection[] },
    format: 'csv' | 'pdf',
  ): Promise<RenderedReport> {
    const filename = fileName(doc.title, doc.period, format);
    if (format === 'csv') return { contentType: 'text/csv; charset=utf-8', filename, body: sectionsCsv(doc.sections) };
    const body = await this.deps.pdf.compose({
      type: 'sections',
      organization: await this.deps.organizationName(ctx.actor.organizationId),
      title: doc.title,
      period: doc.period,
      generatedAt: doc.generatedAt ?? doc.sections[0]?.report.generated_at ?? new Date(ctx.clock.now()).toISOString(),
      sections: doc.sections,
      methodology: sectionsMethodology(doc.sections),
    });
    return { contentType: 'application/pdf', filename, body };
  }

  /** Stops the report worker threads (those that were started). */
  async close(): Promise<void> {
    await Promise.all([
      this.deps.pdf === this.deps.isolation ? null : this.deps.pdf.close(),
      this.deps.isolation?.close(),
    ]);
  }
}

/** A report kind or format that is not wired yet: a fault of the deployment, not of the request. */
function missing(message: string): DomainError {
  return new DomainError('internal_error', message);
}

function csvTable<K extends ReportKind>(kind: K): CsvTable<ReportOf[K]> {
  const table = CSV_TABLES[kind] as CsvTable<ReportOf[K]> | null;
  if (!table) throw missing(`the ${kind} report has no CSV table registered with the ReportRenderer`);
  return table;
}

function methodologyOf(report: { methodology?: string }): string {
  return report.methodology ?? METHODOLOGY;
}

/**
 * Each distinct methodology of the sections, in order: a custom or scheduled report that starts with incidents and
 * shows availability further on still states how downtime (and maintenance) was counted.
 */
export function sectionsMethodology(sections: readonly ReportSection[]): string {
  const notes = [...new Set(sections.map((s) => s.report.methodology).filter((m): m is string => m !== undefined))];
  return notes.length > 0 ? notes.join('\n\n') : METHODOLOGY;
}

function sectionsCsv(sections: readonly ReportSection[]): Buffer {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const s of sections) {
    for (const c of csvTable(s.kind).columns) {
      if (!seen.has(c)) {
        seen.add(c);
        columns.push(c);
      }
    }
  }
  const index = new Map(columns.map((c, i) => [c, i]));
  const rows: Cell[][] = [];
  for (const s of sections) {
    const table = csvTable(s.kind) as CsvTable<ReportSection['report']>;
    const at = table.columns.map((c) => index.get(c)!);
    for (const r of table.rows(s.report)) {
      const row: Cell[] = new Array<Cell>(columns.length).fill(null);
      r.forEach((v, i) => (row[at[i]!] = v));
      rows.push([s.title, ...row]);
    }
  }
  return Buffer.from(csvDocument(['section', ...columns], rows));
}
