import type { Clock } from '../../../platform/clock.ts';
import type { Logger } from '../../../platform/logger.ts';
import { OutageLog } from './outage.log.ts';
import { ControlPlaneError, type RunnerHello } from './remote.source.ts';

export interface ControlPlaneConnectOptions {
  source: { heartbeat(): Promise<RunnerHello> };
  logger: Logger;
  clock: Clock;
  /** Backoff while the control plane is unreachable: first delay, doubled up to the maximum (the runner's own). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Ends the wait early (the process is stopping): rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * A runner's first contact with its control plane. While the control plane is unreachable (no connection, a
 * timeout, 408, 429 or 5xx), it retries with backoff, logging one warning for the outage and one line when the
 * control plane answers: a runner started before its control plane (or during a deploy) comes up on its own.
 * An answer that retrying cannot change (401 for a bad token, another 4xx, a body that is not the protocol's)
 * rejects at once.
 */
export async function connectToControlPlane(o: ControlPlaneConnectOptions): Promise<RunnerHello> {
  const outage = new OutageLog({
    logger: o.logger,
    what: 'control plane',
    baseDelayMs: o.retryBaseMs ?? 1_000,
    maxDelayMs: o.retryMaxMs ?? 30_000,
    now: () => o.clock.now(),
  });
  for (;;) {
    o.signal?.throwIfAborted();
    try {
      const hello = await o.source.heartbeat();
      outage.succeeded();
      return hello;
    } catch (err) {
      if (!isTransientControlPlaneFailure(err)) throw err;
      await delay(outage.failed(err), o.signal);
    }
  }
}

/** Whether waiting can help: the control plane could not be reached, or said it is overloaded or failing. */
export function isTransientControlPlaneFailure(err: unknown): boolean {
  if (err instanceof ControlPlaneError) return err.status === 408 || err.status === 429 || err.status >= 500;
  // A 2xx body that is not JSON: something else answers at that address; waiting does not change it.
  if (err instanceof SyntaxError) return false;
  return true; // fetch failed (refused, reset, DNS), or the request timed out
}

// The backoff is a real wait between network attempts (the clock only stamps the outage's length).
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
