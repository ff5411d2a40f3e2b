/**
 * A report worker thread (started by ReportBuildPool): composes the reports module on a database handle of its own
 * (the composition root's `composeReportWorker`, whose module the pool names), then runs report jobs (build once,
 * encode each format: report-build.job.ts) or draws PDFs of reports given whole, one message at a time. Its clock is
 * each job's instant.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DomainError } from '../../platform/errors.ts';
import { lowerThreadPriority } from '../../platform/thread-priority.ts';
import type { ServiceContext } from '../auth/index.ts';
import type { WireFile, WorkerReply, WorkerRequest } from './report-build.pool.ts';
import { JsonSerializers, runReportJob, type ReportJob } from './report-build.job.ts';
import { composePdf } from './report-pdf.compose.ts';
import { ReportFonts } from './report-pdf.fonts.ts';
import type { BuiltFiles } from './report.kinds.ts';
import { jobHostOf, type ReportWorkerHost } from './reports.module.ts';

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
const jobs = jobHostOf(host.renderer, host.customReports ?? null);
const serializers = new JsonSerializers();

function run(job: ReportJob): Promise<BuiltFiles> {
  const ctx: ServiceContext = { actor: job.actor, db: host.database, clock: { now: () => job.now } };
  return runReportJob(jobs, ctx, job, serializers);
}

async function pdf(draw: () => Promise<Buffer>): Promise<BuiltFiles> {
  let body: Buffer;
  try {
    body = await draw();
  } catch (err) {
    throw new Error(`PDF rendering failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const period = { from: '', to: '', timezone: 'UTC', preset: null };
  return { files: { pdf: { contentType: 'application/pdf', filename: '', body } }, period, summary: {} };
}

/** A tiny document through the PDF code, so modules are compiled and fonts parsed before the first real one. */
function warm(): Promise<BuiltFiles> {
  const period = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z', timezone: 'UTC', preset: null };
  return pdf(() =>
    composePdf(fonts, {
      type: 'report',
      organization: 'warm-up',
      kind: 'availability',
      report: {
        report: 'availability',
        period,
        generated_at: period.to,
        methodology: '',
        summary: {
          monitors: 0,
          uptime_percent: null,
          downtime_seconds: 0,
          degraded_seconds: 0,
          monitored_seconds: 0,
          incidents: 0,
        },
        monitors: [],
      },
      methodology: '',
    }),
  );
}

function reply(id: number, built: BuiltFiles): void {
  const files: WireFile[] = [];
  for (const [format, file] of Object.entries(built.files)) {
    // A copy that owns its memory, handed over instead of cloned (megabytes of JSON, a PDF).
    const bytes = new Uint8Array(file.body.byteLength);
    bytes.set(file.body);
    files.push({
      format: format as WireFile['format'],
      body: bytes,
      contentType: file.contentType,
      filename: file.filename,
    });
  }
  const message: WorkerReply = { id, files, period: built.period, summary: built.summary };
  port.postMessage(
    message,
    files.map((f) => f.body.buffer as ArrayBuffer),
  );
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
    request.type === 'job'
      ? run(request.job)
      : request.type === 'pdf'
        ? pdf(() => composePdf(fonts, request.job))
        : warm();
  work.then(
    (built) => reply(request.id, built),
    (err: unknown) => fail(request.id, err),
  );
});
