/**
 * The one build path of every report file: a job names a report (a kind over an input, or a custom report), its
 * actor and instant, and the formats wanted; the report is built once and each format encoded from that one object
 * (JSON with the route's serializer when given, CSV, PDF). It runs on a report worker thread (ReportBuildPool,
 * report-build.worker.ts) or, with `reports.workers` 0, on the calling thread (ReportRenderer) — the same function.
 */
import fastJson from 'fast-json-stringify';
import type { Actor, ServiceContext } from '../auth/index.ts';
import { reportHeadline } from './report.headline.ts';
import {
  fileName,
  type BuiltFiles,
  type JsonSerializerSpec,
  type RenderedReport,
  type ReportFormat,
  type ReportKind,
  type ReportOf,
} from './report.kinds.ts';
import type { ReportInput } from './report.request.ts';
import type { ReportPeriod } from './report.types.ts';

/** Everything in a job crosses a thread by structured clone. */
export type ReportJob =
  | {
      type: 'report';
      kind: ReportKind;
      input: ReportInput;
      formats: readonly ReportFormat[];
      actor: Actor;
      /** The request's instant (its context's clock): a worker reads no clock of its own. */
      now: number;
      /** For format json; null: JSON.stringify. */
      json: JsonSerializerSpec | null;
    }
  | {
      type: 'custom';
      /** The custom report's id (visibility and plan are checked where it is built). */
      id: string;
      formats: readonly ReportFormat[];
      actor: Actor;
      now: number;
      json: JsonSerializerSpec | null;
    };

/** A custom report's document as the job encodes it. */
export interface CustomJobDocument {
  name: string;
  period: ReportPeriod;
}

/** What a job needs where it runs: the reports module's builders and encoders (reports.module.ts, jobHostOf). */
export interface ReportJobHost {
  build(ctx: ServiceContext, kind: ReportKind, input: ReportInput): Promise<ReportOf[ReportKind]>;
  encode(
    ctx: ServiceContext,
    kind: ReportKind,
    report: ReportOf[ReportKind],
    format: 'csv' | 'pdf',
  ): Promise<RenderedReport>;
  /** null where custom reports are not composed (a test's worker). */
  custom: {
    document(ctx: ServiceContext, id: string): Promise<CustomJobDocument>;
    encode(ctx: ServiceContext, doc: CustomJobDocument, format: 'csv' | 'pdf'): Promise<RenderedReport>;
  } | null;
}

type Serializer = (data: unknown) => string;

/** fast-json-stringify serializers compiled once per schema (per thread: each runner has its own). */
export class JsonSerializers {
  private readonly compiled = new Map<string, Serializer>();

  of(spec: JsonSerializerSpec): Serializer {
    const key = JSON.stringify(spec);
    let serializer = this.compiled.get(key);
    if (!serializer) {
      serializer = fastJson(spec.schema as unknown as fastJson.Schema, {
        schema: spec.external as Record<string, fastJson.Schema>,
      }) as Serializer;
      this.compiled.set(key, serializer);
    }
    return serializer;
  }
}

/** Builds the job's report once and encodes it in each of its formats. */
export async function runReportJob(
  host: ReportJobHost,
  ctx: ServiceContext,
  job: ReportJob,
  serializers: JsonSerializers,
): Promise<BuiltFiles> {
  const json = (name: string, period: ReportPeriod, data: object): RenderedReport => ({
    contentType: 'application/json; charset=utf-8',
    filename: fileName(name, period, 'json'),
    body: Buffer.from(job.json ? serializers.of(job.json)(data) : JSON.stringify(data)),
  });
  const files: BuiltFiles['files'] = {};
  if (job.type === 'report') {
    const report = await host.build(ctx, job.kind, job.input);
    for (const format of job.formats) {
      files[format] =
        format === 'json' ? json(job.kind, report.period, report) : await host.encode(ctx, job.kind, report, format);
    }
    return { files, period: report.period, summary: reportHeadline(report) };
  }
  if (!host.custom) throw new Error('custom reports are not composed here');
  const doc = await host.custom.document(ctx, job.id);
  for (const format of job.formats) {
    files[format] = format === 'json' ? json(doc.name, doc.period, doc) : await host.custom.encode(ctx, doc, format);
  }
  return { files, period: doc.period, summary: reportHeadline(doc) };
}
