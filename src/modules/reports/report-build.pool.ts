import { Worker } from 'node:worker_threads';
import { DomainError, type ErrorCode, type ErrorDetail } from '../../platform/errors.ts';
import { systemTimers, type TimerHandle, type Timers } from '../../platform/timers.ts';
import type { Actor } from '../auth/index.ts';
import type { ReportJob } from './report-build.job.ts';
import type { PdfJob } from './report-pdf.compose.ts';
import type { PdfComposer } from './report-pdf.pool.ts';
import type { BuiltFiles, JsonSerializerSpec, ReportFormat, ReportKind } from './report.kinds.ts';
import type { ReportInput } from './report.request.ts';
import type { ReportPeriod } from './report.types.ts';

export type { JsonSerializerSpec } from './report.kinds.ts';

/** One report in one format (the single-file form of a ReportJob). */
export interface ReportBuildJob {
  kind: ReportKind;
  format: ReportFormat;
  input: ReportInput;
  actor: Actor;
  /** The request's instant (its context's clock): the worker reads no clock of its own. */
  now: number;
  /** For format json. */
  json: JsonSerializerSpec | null;
}

export interface BuiltFile {
  contentType: string;
  filename: string;
  body: Buffer;
}

export interface ReportBuildPoolOptions {
  /** Worker threads (each with its own database handle). */
  workers: number;
  /** A job running longer (from when its thread is ready) is stopped with its thread (503); the next job starts a new one. */
  timeoutMs: number;
  /**
   * A thread without a job for this long is stopped (its ~110 MiB of heap, modules and fonts given back); the next
   * job starts a new one. 0: kept until close().
   */
  idleMs: number;
  /** The time limit's and the idle stop's timers (tests fire them without waiting). */
  timers?: Timers;
  /** The module the worker imports to compose its services (exports `composeReportWorker(setup)`). */
  compose: URL;
  /** Handed to `composeReportWorker` (structured clone: configuration, database options). */
  setup: unknown;
}

/** Messages between the pool and a worker (report-build.worker.ts). */
export type WorkerRequest =
  | { type: 'job'; id: number; job: ReportJob }
  | { type: 'pdf'; id: number; job: PdfJob }
  | { type: 'warm'; id: number }
  | { type: 'close' };
export interface WireFile {
  format: ReportFormat;
  body: Uint8Array;
  contentType: string;
  filename: string;
}
export type WorkerReply =
  | { type: 'ready' }
  | { id: number; files: WireFile[]; period: ReportPeriod; summary: Record<string, unknown> }
  | { id: number; error: { code: ErrorCode | null; message: string; details?: ErrorDetail[] } };

interface Task {
  request: Exclude<WorkerRequest, { type: 'close' }>;
  resolve: (built: BuiltFiles) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Composed (modules loaded, database opened): a job's time limit runs from here. */
  ready: boolean;
  task: Task | null;
  /** The running job's time limit. */
  timer: TimerHandle | null;
  /** While without a job: when it is stopped. */
  idle: TimerHandle | null;
  /** Resolves once the thread is composed or has exited. */
  settled: Promise<void>;
}

/**
 * Report generation off the main event loop, the one place every report file is made (routes of every kind and
 * format, custom reports, scheduled runs): the reports of 1,000 monitors are hundreds of milliseconds of reading,
 * folding, serializing and drawing that would hold up checks and requests. Each worker thread composes the reports
 * module on a database handle of its own (better-sqlite3, or a small PostgreSQL pool), builds a job's report once and
 * answers each format asked for (report-build.job.ts); the files are transferred, not copied. It can also draw the
 * PDF of a report given whole (`compose`).
 * Threads start at the first job (or `warm()`), one job each at a time, the rest queued in order, and stop after
 * `idleMs` without a job: a process that makes no reports does not carry them. A thread that
 * dies fails its job with a plain Error (the generic 500 envelope; the reason is logged); a job over the time limit
 * is stopped with its thread (service_unavailable, 503); either way the next job gets a new thread. Idle threads do
 * not keep the process alive; each runs at a lower priority than the main thread (report-build.worker.ts).
 */
export class ReportBuildPool implements PdfComposer {
  private readonly options: ReportBuildPoolOptions;
  private readonly timers: Timers;
  private readonly slots: Array<Slot | null>;
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ReportBuildPoolOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) throw new Error('ReportBuildPool: workers ≥ 1');
    if (!Number.isInteger(options.idleMs) || options.idleMs < 0) throw new Error('ReportBuildPool: idleMs ≥ 0');
    this.options = options;
    this.timers = options.timers ?? systemTimers;
    this.slots = Array.from({ length: options.workers }, () => null);
  }

  /** Builds the job's report once and encodes it in each of its formats. */
  run(job: ReportJob): Promise<BuiltFiles> {
    return this.submit({ type: 'job', id: this.nextId++, job });
  }

  /** Builds the report of `job` and encodes it in its format. */
  async build(job: ReportBuildJob): Promise<BuiltFile> {
    const { format, ...rest } = job;
    const built = await this.run({ type: 'report', ...rest, formats: [format] });
    return built.files[format]!;
  }

  /** Draws the PDF of a report given whole (PdfComposer). */
  async compose(job: PdfJob): Promise<Buffer> {
    return (await this.submit({ type: 'pdf', id: this.nextId++, job })).files.pdf!.body;
  }

  /**
   * Starts every thread and has each draw a small PDF (modules compiled, fonts parsed): the next report then costs
   * what any other does (until the threads stop when idle). Resolves when they are ready.
   */
  async warm(): Promise<void> {
    await Promise.all(this.slots.map(() => this.submit({ type: 'warm', id: this.nextId++ })));
  }

  /** Threads running now (started and not stopped, idle or not). */
  get size(): number {
    return this.slots.filter((slot) => slot !== null).length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(unavailable('the report workers are stopping'));
    await Promise.all(
      this.slots.map(async (slot, i) => {
        if (!slot) return;
        this.slots[i] = null;
        this.clearTimers(slot);
        slot.task?.reject(unavailable('the report workers are stopping'));
        slot.task = null;
        await stopThread(slot);
      }),
    );
    this.closed = false;
  }

  private submit(request: Task['request']): Promise<BuiltFiles> {
    return new Promise<BuiltFiles>((resolve, reject) => {
      if (this.closed) {
        reject(unavailable('the report workers are stopping'));
        return;
      }
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let i = 0; i < this.slots.length && this.queue.length > 0; i++) {
      const slot = this.slots[i] ?? this.start(i);
      if (slot.task) continue;
      const task = this.queue.shift()!;
      slot.task = task;
      if (slot.idle) this.timers.cancel(slot.idle);
      slot.idle = null;
      // While a job is out the thread keeps the process alive (a script awaiting its report); idle it does not.
      slot.worker.ref();
      if (slot.ready) this.startTimer(i, slot);
      slot.worker.postMessage(task.request);
    }
  }

  private start(i: number): Slot {
    const worker = new Worker(new URL('./report-build.worker.ts', import.meta.url), {
      workerData: { compose: this.options.compose.href, setup: this.options.setup },
    });
    worker.unref();
    let settle = () => {};
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const slot: Slot = { worker, ready: false, task: null, timer: null, idle: null, settled };
    worker.once('exit', () => settle());
    worker.on('message', (reply: WorkerReply) => {
      if ('type' in reply) {
        slot.ready = true;
        settle();
        if (slot.task) this.startTimer(i, slot);
        return;
      }
      const task = slot.task;
      if (!task || task.request.id !== reply.id) return;
      this.finish(i, slot);
      if ('error' in reply) task.reject(errorOf(reply.error));
      else task.resolve(builtOf(reply));
      this.dispatch();
      if (!slot.task && this.slots[i] === slot) this.idleFrom(i, slot);
    });
    const died = (err: Error) => {
      if (this.slots[i] !== slot) return;
      const task = slot.task;
      this.slots[i] = null;
      this.clearTimers(slot);
      // Not a DomainError: the client gets the generic 500 envelope, the reason goes to the log with the request.
      task?.reject(new Error(`the report worker stopped: ${err.message}`));
      this.dispatch();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`exit code ${code}`)));
    this.slots[i] = slot;
    return slot;
  }

  private startTimer(i: number, slot: Slot): void {
    slot.timer = this.timers.after(this.options.timeoutMs, () => this.timedOut(i, slot));
  }

  /** A thread left without a job is stopped after idleMs unless a job comes first (dispatch cancels this). */
  private idleFrom(i: number, slot: Slot): void {
    if (this.options.idleMs === 0) return;
    slot.idle = this.timers.after(this.options.idleMs, () => {
      if (this.slots[i] !== slot || slot.task) return;
      this.slots[i] = null;
      slot.idle = null;
      void stopThread(slot);
    });
  }

  private clearTimers(slot: Slot): void {
    if (slot.timer) this.timers.cancel(slot.timer);
    if (slot.idle) this.timers.cancel(slot.idle);
    slot.timer = null;
    slot.idle = null;
  }

  private finish(i: number, slot: Slot): void {
    if (slot.timer) this.timers.cancel(slot.timer);
    slot.timer = null;
    slot.task = null;
    if (this.slots[i] === slot) slot.worker.unref();
  }

  private timedOut(i: number, slot: Slot): void {
    const task = slot.task;
    if (this.slots[i] !== slot || !task) return;
    this.slots[i] = null;
    slot.task = null;
    slot.timer = null;
    void slot.worker.terminate();
    task.reject(
      unavailable(`the report took longer than ${Math.round(this.options.timeoutMs / 1000)} s and was stopped`),
    );
    this.dispatch();
  }
}

/** How long a thread still loading its modules is waited for before it is stopped anyway. */
const COMPOSE_WAIT_MS = 60_000;

/**
 * Asks a thread to close its database and end; one that has not within 2 s of being composed is stopped. A thread
 * still loading its modules or opening its database is not stopped in the middle of it (terminating a worker inside a
 * native module's load has crashed the whole process: a SIGSEGV of a test worker after an app's close): the close
 * message waits in its queue until it is composed, and only a thread that never gets there is stopped after 60 s.
 */
async function stopThread(slot: Slot): Promise<void> {
  const { worker } = slot;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage({ type: 'close' } satisfies WorkerRequest);
  let timer: NodeJS.Timeout | null = setTimeout(() => void worker.terminate(), COMPOSE_WAIT_MS);
  void slot.settled.then(() => {
    if (timer === null) return;
    clearTimeout(timer);
    timer = setTimeout(() => void worker.terminate(), 2000);
  });
  await exited;
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

function unavailable(reason: string): DomainError {
  return new DomainError('service_unavailable', `The report could not be made: ${reason}. Try again later.`);
}

/** A DomainError thrown on the thread is the same DomainError here (its envelope, its status). */
function errorOf(e: { code: ErrorCode | null; message: string; details?: ErrorDetail[] }): Error {
  if (e.code !== null) return new DomainError(e.code, e.message, e.details);
  return new Error(`report worker: ${e.message}`);
}

function builtOf(reply: { files: WireFile[]; period: ReportPeriod; summary: Record<string, unknown> }): BuiltFiles {
  const files: BuiltFiles['files'] = {};
  for (const f of reply.files) {
    const body = Buffer.from(f.body.buffer, f.body.byteOffset, f.body.byteLength);
    files[f.format] = { contentType: f.contentType, filename: f.filename, body };
  }
  return { files, period: reply.period, summary: reply.summary };
}
