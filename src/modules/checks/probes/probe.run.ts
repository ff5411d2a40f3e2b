/**
 * The one frame every network probe runs in: start time and timings, the probe's timeout and the check's abort
 * signal folded into one abort (a `timeout` failure), and the catch that turns any failure into a `down` observation.
 * Plain callbacks and one shared promise rather than an AbortController: a check is on the hot path, and EventTarget
 * listeners per step cost a measurable share of a check's CPU (bench/probes).
 */
import type { Observation, ProbeContext, ProbeError, ProbeTimings } from './probe.contract.ts';
import { classifyError, downObservation, emptyTimings, ProbeFailure, round } from './probe.net.ts';

export interface ProbeRun {
  /** Epoch ms (ctx.now()) when the check started. */
  readonly started_at: number;
  /** Filled by the probe phase by phase; `total_ms` is set when the observation is made. */
  readonly timings: ProbeTimings;
  /** Set when the timeout passed or the check was aborted: the `timeout` failure the observation reports. */
  readonly abortReason: ProbeFailure | null;
  /** Calls `cancel` when the run is aborted (at once if it already is): to destroy a socket, cancel a call. */
  onAbort(cancel: (reason: ProbeFailure) => void): void;
  /** Settles like `step`, or rejects with the abort reason as soon as the run is aborted (for DNS, connects …). */
  race<T>(step: Promise<T>): Promise<T>;
  /** Facts a failed observation keeps (the http probe's status and details). */
  readonly partial: { http_status?: number | null; details?: Record<string, unknown> };
  /** Milliseconds since the run started. */
  elapsed(): number;
  /** The observation of a check that ran to its end: `up` unless `error`. */
  observation(result: Outcome): Observation;
}

export interface Outcome {
  error: ProbeError | null;
  http_status?: number | null;
  assertions?: Observation['assertions'];
  details?: Record<string, unknown>;
  events?: Observation['events'];
  /** When the check's duration was already taken (an assertion on response time must see the same figure). */
  duration_ms?: number;
}

export interface ProbeRunOptions {
  timeoutMs: number;
  /** What the timeout means for this probe, e.g. "no TLS handshake within 2000 ms". */
  timeoutMessage: string;
  /** Adjusts a failure's observation (e.g. the dns probe counts the whole run as DNS time). */
  onFailure?(observation: Observation): void;
}

export async function runProbeWithin(
  ctx: ProbeContext,
  options: ProbeRunOptions,
  body: (run: ProbeRun) => Promise<Observation>,
): Promise<Observation> {
  const run = new Run(ctx.now());
  const timer = setTimeout(() => run.abort(options.timeoutMessage), options.timeoutMs);
  const onAbort = (): void => run.abort('check aborted');
  if (ctx.signal?.aborted) onAbort();
  else ctx.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await body(run);
  } catch (err) {
    // A step cut short by the abort fails with its own error (ECONNRESET, CANCELLED …): the reason is the abort.
    const observation = downObservation(run.started_at, run.t0, classifyError(run.abortReason ?? err), {
      timings: run.timings,
      http_status: run.partial.http_status ?? null,
      ...(run.partial.details && Object.keys(run.partial.details).length ? { details: run.partial.details } : {}),
    });
    observation.timings.total_ms = observation.duration_ms;
    options.onFailure?.(observation);
    return observation;
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener('abort', onAbort);
  }
}

class Run implements ProbeRun {
  readonly started_at: number;
  readonly t0 = performance.now();
  readonly timings = emptyTimings(0);
  readonly partial: ProbeRun['partial'] = {};
  abortReason: ProbeFailure | null = null;
  private readonly cancels: Array<(reason: ProbeFailure) => void> = [];
  /** Rejected on abort; made on the first race only (most checks never race an uncancellable step). */
  private aborted: Promise<never> | null = null;
  private rejectAborted: ((reason: ProbeFailure) => void) | null = null;

  constructor(started_at: number) {
    this.started_at = started_at;
  }

  abort(message: string): void {
    if (this.abortReason) return;
    const reason = new ProbeFailure('timeout', message);
    this.abortReason = reason;
    this.rejectAborted?.(reason);
    for (const cancel of this.cancels) cancel(reason);
  }

  onAbort(cancel: (reason: ProbeFailure) => void): void {
    if (this.abortReason) cancel(this.abortReason);
    else this.cancels.push(cancel);
  }

  race<T>(step: Promise<T>): Promise<T> {
    if (this.abortReason) return Promise.reject(this.abortReason);
    if (!this.aborted) {
      this.aborted = new Promise<never>((_, reject) => (this.rejectAborted = reject));
      this.aborted.catch(() => undefined);
    }
    return Promise.race([step, this.aborted]);
  }

  elapsed(): number {
    return round(performance.now() - this.t0);
  }

  observation(result: Outcome): Observation {
    const duration_ms = result.duration_ms ?? this.elapsed();
    this.timings.total_ms = duration_ms;
    return {
      status: result.error ? 'down' : 'up',
      started_at: this.started_at,
      duration_ms,
      timings: this.timings,
      http_status: result.http_status ?? null,
      assertions: result.assertions ?? [],
      error: result.error,
      ...(result.details ? { details: result.details } : {}),
      ...(result.events?.length ? { events: result.events } : {}),
    };
  }
}
