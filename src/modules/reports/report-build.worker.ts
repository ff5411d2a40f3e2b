/**
 * A report worker thread (started by ReportBuildPool): composes the reports module on a database handle of its own
 * (the composition root's `composeReportWorker`, whose module the pool names), then builds and encodes reports, or
 * draws PDFs of reports built elsewhere, one message at a time. Its clock is each job's instant.
 */
import { parentPort, workerData } from 'node:worker_threads';
import fastJson from 'fast-json-stringify';
import { DomainError } from '../../platform/errors.ts';
import { lowerThreadPriority } from '../../platform/thread-priority.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { BuiltFile, JsonSerializerSpec, ReportBuildJob, WorkerReply, WorkerRequest } from './report-build.pool.ts';
import { composePdf } from './report-pdf.compose.ts';
import { ReportFonts } from './report-pdf.fonts.ts';
import { fileName } from './report.kinds.ts';
import type { ReportWorkerHost } from './reports.module.ts';

type Serializer = (data: unknown) => string;

/**
 * The scheduling priority of a report thread (nice; the main thread keeps the process's). Reports are background
 * work beside the checks: when the cores are busy the check engine and the API come first and a report takes longer.
 */
const REPORT_THREAD_NICE = 10;

lowerThreadPriority(REPORT_THREAD_NICE);
const port = parentPort!;
const { compose, setup } = workerData as { compose: string; setup: unknown };
const { composeReportWorker } = (await import(compose)) as {
  composeReportWorker: (setup: unknown, fonts: ReportFonts) => Promise<ReportWorkerHost>;
};
// Parsed once for every PDF this thread draws (built here or handed over).
const fonts = new ReportFonts();
const host = await composeReportWorker(setup, fonts);
const serializers = new Map<string, Serializer>();

function serializerOf(spec: JsonSerializerSpec): Serializer {
  const key = JSON.stringify(spec);
  let serializer = serializers.get(key);
  if (!serializer) {
    serializer = fastJson(spec.schema as unknown as fastJson.Schema, {
      schema: spec.external as Record<string, fastJson.Schema>,
    }) as Serializer;
    serializers.set(key, serializer);
  }
  return serializer;
}

async function build(job: ReportBuildJob): Promise<BuiltFile> {
  const ctx: ServiceContext = { actor: job.actor, db: host.database, clock: { now: () => job.now } };
  const report = await host.renderer.build(ctx, job.kind, job.input);
  if (job.format === 'json') {
    if (!job.json) throw new Error('a JSON report needs its serializer schema');
    return {
      contentType: 'application/json; charset=utf-8',
      filename: fileName(job.kind, report.period, 'json'),
      body: Buffer.from(serializerOf(job.json)(report)),
    };
  }
  return host.renderer.encode(ctx, job.kind, report, job.format);
}

/** A tiny document through the PDF code, so modules are compiled and fonts parsed before the first real one. */
async function warm(): Promise<BuiltFile> {
  const period = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z', timezone: 'UTC', preset: null };
  const body = await composePdf(fonts, {
    type: 'report',
    organization: 'warm-up',
    kind: 'availability',
    report: {
      report: 'availability',
      period,
      generated_at: period.to,
      methodology: '',
      summary: { monitors: 0, uptime_percent: null, downtime_seconds: 0, monitored_seconds: 0, incidents: 0 },
      monitors: [],
    },
    methodology: '',
  });
  return { contentType: 'application/pdf', filename: '', body };
}

function reply(id: number, file: BuiltFile): void {
  // A copy that owns its memory, handed over instead of cloned (megabytes of JSON, a PDF).
  const bytes = new Uint8Array(file.body.byteLength);
  bytes.set(file.body);
  const message: WorkerReply = { id, body: bytes, contentType: file.contentType, filename: file.filename };
  port.postMessage(message, [bytes.buffer]);
}

function fail(id: number, err: unknown): void {
  const message: WorkerReply = {
    id,
    error:
      err instanceof DomainError
        ? { code: err.code, message: err.message, ...(err.details !== undefined && { details: err.details }) }
        : { code: null, message: err instanceof Error ? (err.stack ?? err.message) : String(err) },
  };
  port.postMessage(message);
}

port.postMessage({ type: 'ready' } satisfies WorkerReply);
port.on('message', (request: WorkerRequest) => {
  if (request.type === 'close') {
    void host.close().finally(() => port.close());
    return;
  }
  const work =
    request.type === 'build'
      ? build(request.job)
      : request.type === 'pdf'
        ? composePdf(fonts, request.job).then((body) => ({ contentType: 'application/pdf', filename: '', body }))
        : warm();
  work.then(
    (file) => reply(request.id, file),
    (err: unknown) => fail(request.id, err),
  );
});
