import { createOutboundConnector, systemResolver } from '../../../platform/net/index.ts';
import type { CheckResult, ClaimedCheck, WorkSource } from '../engine/check.types.ts';
import { checkFromWire, resultToWire, type WireCheck } from './runner.wire.ts';

export interface RemoteWorkSourceOptions {
  /** The control plane's base URL, e.g. https://tocsin.example.com */
  controlPlane: string;
  token: string;
  /**
   * Tests and a custom CA; by default the outbound connector's, the control plane being a trusted endpoint (the
   * operator's; private addresses allowed), each request pinned to the address it resolved to.
   */
  fetch?: typeof fetch;
}

/** The control plane's answer to a heartbeat: who this runner is. */
export interface RunnerHello {
  runner_id: string;
  region_code: string;
  server_time: string;
}

/** A runner's source over HTTP(S): long-poll claims, batched results, heartbeats (runner token auth). */
export class RemoteWorkSource implements WorkSource {
  private readonly base: string;
  private readonly token: string;
  private readonly doFetch: typeof fetch;
  constructor(o: RemoteWorkSourceOptions) {
    this.base = o.controlPlane.replace(/\/+$/, '');
    this.token = o.token;
    this.doFetch =
      o.fetch ??
      // undici's fetch, the implementation behind the global one (only nominal class names differ).
      (createOutboundConnector({ allowPrivateTargets: true, resolver: systemResolver })
        .fetch as unknown as typeof fetch);
  }

  private async post<T>(path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await this.doFetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    const text = await res.text();
    if (!res.ok) throw new ControlPlaneError(res.status, path, text);
    return JSON.parse(text) as T;
  }

  async claim(max: number, waitMs: number, _lookaheadMs = 0, signal?: AbortSignal): Promise<ClaimedCheck[]> {
    const wait = Math.max(0, Math.min(25, Math.round(waitMs / 1000)));
    const out = await this.post<{ checks: WireCheck[] }>(
      '/api/v1/runners/claim',
      { max: Math.min(max, 500), wait_seconds: wait },
      (wait + 15) * 1000,
      signal,
    );
    return out.checks.map(checkFromWire);
  }

  /**
   * Sends a batch of results. The control plane refuses a batch holding results whose lease this runner no longer
   * holds (409, each named `results[i]`): those are dropped (the slot is someone else's now) and the rest is sent
   * again. Returns how many results were dropped.
   */
  async submit(results: CheckResult[]): Promise<number> {
    let batch = results;
    for (;;) {
      try {
        await this.post('/api/v1/runners/results', { results: batch.map(resultToWire) }, 30_000);
        return results.length - batch.length;
      } catch (err) {
        const refused = err instanceof ControlPlaneError ? err.refusedResults() : [];
        if (refused.length === 0) throw err;
        batch = batch.filter((_, i) => !refused.includes(i));
        if (batch.length === 0) return results.length;
      }
    }
  }

  heartbeat(): Promise<RunnerHello> {
    return this.post('/api/v1/runners/heartbeat', {}, 10_000);
  }
}

/** A non-2xx answer of the control plane (its error envelope kept for what the runner can act on). */
export class ControlPlaneError extends Error {
  readonly status: number;
  private readonly body: string;
  constructor(status: number, path: string, body: string) {
    super(`control plane answered ${status} to ${path}: ${body.slice(0, 300)}`);
    this.name = 'ControlPlaneError';
    this.status = status;
    this.body = body;
  }

  /** Indexes of the results a 409 `conflict` names (`details[].field` = `results[i]`). */
  refusedResults(): number[] {
    if (this.status !== 409) return [];
    let envelope: { error?: { code?: unknown; details?: Array<{ field?: unknown }> } };
    try {
      envelope = JSON.parse(this.body) as typeof envelope;
    } catch {
      return [];
    }
    if (envelope.error?.code !== 'conflict') return [];
    return (envelope.error.details ?? []).flatMap((d) => {
      const m = typeof d.field === 'string' ? /^results\[(\d+)\]$/.exec(d.field) : null;
      return m ? [Number(m[1])] : [];
    });
  }
}
