import { Worker } from 'node:worker_threads';
import { DomainError, validationFailed, type ErrorCode, type ErrorDetail } from '../../platform/errors.ts';
import { systemTimers, type TimerHandle, type Timers } from '../../platform/timers.ts';
import type { ImportDefaults, PlannedMonitor } from './openapi.import.ts';

export interface OpenApiParserOptions {
  /** Operations a description may have (more: 422 on `spec`). */
  maxOperations: number;
  /** A parse running longer on its thread (from when the thread is ready) is stopped with it (422 on `spec`). */
  timeoutMs: number;
  /** Parses running at once, one thread each; the others wait in order. */
  threads: number;
  /** The limit's timers (tests fire them without waiting). */
  timers?: Timers;
}

interface JobBase {
  spec: unknown;
  /** `spec` is the JSON text of an object sent inside a request body: text that is not JSON is the body's fault. */
  specIsBodyJson: boolean;
  baseUrl: string | undefined;
  maxOperations: number;
}

/** The description as a request gave it. */
export interface SpecInput {
  /** An object, JSON or YAML text (a parse), or the JSON text of an object sent inside the body (`bodyJson`). */
  spec: unknown;
  bodyJson?: boolean;
  baseUrl: string | undefined;
}
/** What a parse thread is given (structured clone): list the operations, or plan an import from them. */
export type ParseJob =
  | (JobBase & { type: 'parse' })
  | (JobBase & { type: 'plan'; operationIds: string[]; defaults: ImportDefaults | undefined });
export type ParseReply =
  | { type: 'ready' }
  | { type: 'parsed'; json: string }
  | { type: 'planned'; planned: PlannedMonitor[] }
  | { type: 'error'; error: { code: ErrorCode | null; message: string; details?: ErrorDetail[] } };

interface Pending {
  job: ParseJob;
  resolve: (reply: ParseReply) => void;
  reject: (err: Error) => void;
}

/**
 * OpenAPI descriptions parsed off the main event loop. A 40,000-path description is seconds of JSON parsing,
 * duplicate-key scanning, `$ref` following and monitor building, during which a parse on the main thread left
 * every other request (and the checks) waiting; here each parse runs on a thread of its own, which ends with it, so a
 * big description's memory goes with it too. What is over the limits is a 422 on `spec`: more operations than
 * `maxOperations` (counted before references are followed), or a parse longer than `timeoutMs`, whose thread is
 * terminated. At most `threads` parses run at once; the others queue.
 */
export class OpenApiParser {
  private readonly options: OpenApiParserOptions;
  private readonly timers: Timers;
  private readonly queue: Pending[] = [];
  private readonly running = new Set<Worker>();
  private closed = false;

  constructor(options: OpenApiParserOptions) {
    if (!Number.isInteger(options.threads) || options.threads < 1) throw new Error('OpenApiParser: threads ≥ 1');
    this.options = options;
    this.timers = options.timers ?? systemTimers;
  }

  /** The parse's answer as JSON text, `{"operations": [...]}` (ParsedOperation), ready to send. */
  async parse(input: SpecInput): Promise<string> {
    const reply = await this.submit({ type: 'parse', ...this.base(input) });
    if (reply.type !== 'parsed') throw new Error(`OpenAPI parse thread: unexpected ${reply.type} reply`);
    return reply.json;
  }

  /** The monitors an import of `operationIds` creates from the description (planImport, on the thread). */
  async plan(
    input: SpecInput,
    operationIds: string[],
    defaults: ImportDefaults | undefined,
  ): Promise<PlannedMonitor[]> {
    const reply = await this.submit({ type: 'plan', ...this.base(input), operationIds, defaults });
    if (reply.type !== 'planned') throw new Error(`OpenAPI parse thread: unexpected ${reply.type} reply`);
    return reply.planned;
  }

  private base(input: SpecInput): JobBase {
    return {
      spec: input.spec,
      specIsBodyJson: input.bodyJson === true,
      baseUrl: input.baseUrl,
      maxOperations: this.options.maxOperations,
    };
  }

  /** Parses running now. */
  get size(): number {
    return this.running.size;
  }

  /** Refuses what waits and stops what runs (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(stopping());
    await Promise.all([...this.running].map((worker) => worker.terminate()));
  }

  private submit(job: ParseJob): Promise<ParseReply> {
    return new Promise<ParseReply>((resolve, reject) => {
      if (this.closed) {
        reject(stopping());
        return;
      }
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running.size < this.options.threads && this.queue.length > 0) this.start(this.queue.shift()!);
  }

  private start(pending: Pending): void {
    // The job goes as workerData: one structured clone, of a string when the description came as text.
    const worker = new Worker(new URL('./openapi.parse.worker.ts', import.meta.url), { workerData: pending.job });
    this.running.add(worker);
    let timer: TimerHandle | null = null;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      if (timer) this.timers.cancel(timer);
      this.running.delete(worker);
      outcome();
      this.dispatch();
    };
    worker.on('message', (reply: ParseReply) => {
      if (reply.type === 'ready') {
        timer = this.timers.after(this.options.timeoutMs, () => {
          settle(() => pending.reject(tooSlow(this.options.timeoutMs)));
          void worker.terminate();
        });
        return;
      }
      if (reply.type === 'error') settle(() => pending.reject(errorOf(reply.error)));
      else settle(() => pending.resolve(reply));
    });
    // Not DomainErrors: the client gets the generic 500 envelope, the reason goes to the log with the request.
    worker.on('error', (err) => settle(() => pending.reject(new Error(`OpenAPI parse thread: ${err.message}`))));
    worker.on('exit', (code) =>
      settle(() => pending.reject(this.closed ? stopping() : new Error(`OpenAPI parse thread ended (${code})`))),
    );
  }
}

function tooSlow(timeoutMs: number): DomainError {
  return validationFailed(
    [{ field: 'spec', issue: `took longer than ${timeoutMs} ms to read (imports.openapi_timeout_ms)` }],
    'The description took too long to read and was stopped.',
  );
}

function stopping(): DomainError {
  return new DomainError('service_unavailable', 'The server is stopping. Try again later.');
}

/** A DomainError thrown on the thread is the same DomainError here (its envelope, its status). */
function errorOf(e: { code: ErrorCode | null; message: string; details?: ErrorDetail[] }): Error {
  if (e.code !== null) return new DomainError(e.code, e.message, e.details);
  return new Error(`OpenAPI parse thread: ${e.message}`);
}
