/**
 * The one frame every network probe runs in: start time and timings, the probe's timeout and the check's abort
 * signal folded into one AbortSignal, and the catch that turns any failure into a `down` observation.
 */
import type { Observation, ProbeContext, ProbeError, ProbeTimings } from './probe.contract.ts';
import { classifyError, downObservation, emptyTimings, ProbeFailure, round } from './probe.net.ts';

export interface ProbeRun {
  /** Epoch ms (ctx.now()) when the check started. */
  readonly started_at: number;
  /** Filled by the probe phase by phase; `total_ms` is set when the observation is made. */
  readonly timings: ProbeTimings;
  /** Aborted, with a `timeout` ProbeFailure as its reason, when the timeout passes or the check is aborted. */
  readonly signal: AbortSignal;
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
  const t0 = performance.now();
  const started_at = ctx.now();
  const controller = new AbortController();
  const stop = (message: string): void => controller.abort(new ProbeFailure('timeout', message));
  const timer = setTimeout(() => stop(options.timeoutMessage), options.timeoutMs);
  const onAbort = (): void => stop('check aborted');
  if (ctx.signal?.aborted) onAbort();
  else ctx.signal?.addEventListener('abort', onAbort, { once: true });
  const run: ProbeRun = {
    started_at,
    timings: emptyTimings(0),
    signal: controller.signal,
    race: (step) => raceSignal(step, controller.signal),
    partial: {},
    elapsed: () => round(performance.now() - t0),
    observation(result) {
      const duration_ms = result.duration_ms ?? run.elapsed();
      run.timings.total_ms = duration_ms;
      return {
        status: result.error ? 'down' : 'up',
        started_at,
        duration_ms,
        timings: run.timings,
        http_status: result.http_status ?? null,
        assertions: result.assertions ?? [],
        error: result.error,
        ...(result.details ? { details: result.details } : {}),
        ...(result.events?.length ? { events: result.events } : {}),
      };
    },
  };
  try {
    return await body(run);
  } catch (err) {
    // A step cut short by the abort fails with its own error (AbortError, ECONNRESET …): the reason is the abort.
    const error = classifyError(controller.signal.aborted ? controller.signal.reason : err);
    const observation = downObservation(started_at, t0, error, {
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

function raceSignal<T>(step: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    step.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
