import type { CheckResult, ClaimedCheck, WorkSource } from '../engine/check.types.ts';
import { checkFromWire, resultToWire, type WireCheck } from './runner.wire.ts';

export interface RemoteWorkSourceOptions {
  /** The control plane's base URL, e.g. https://tocsin.example.com */
  controlPlane: string;
  token: string;
  /** Tests and a custom CA; defaults to the global fetch. */
  fetch?: typeof fetch;
}

/** A runner's source over HTTP(S): long-poll claims, batched results, heartbeats (runner token auth). */
export class RemoteWorkSource implements WorkSource {
  private readonly base: string;
  private readonly token: string;
  private readonly doFetch: typeof fetch;
  constructor(o: RemoteWorkSourceOptions) {
    this.base = o.controlPlane.replace(/\/+$/, '');
    this.token = o.token;
    this.doFetch = o.fetch ?? fetch;
  }

  private async post<T>(path: string, body: unknown, timeoutMs: number): Promise<T> {
    const res = await this.doFetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`control plane answered ${res.status} to ${path}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  async claim(max: number, waitMs: number): Promise<ClaimedCheck[]> {
    const wait = Math.max(0, Math.min(25, Math.round(waitMs / 1000)));
    const out = await this.post<{ checks: WireCheck[] }>(
      '/api/v1/runners/claim',
      { max: Math.min(max, 500), wait_seconds: wait },
      (wait + 15) * 1000,
    );
    return out.checks.map(checkFromWire);
  }

  async submit(results: CheckResult[]): Promise<void> {
    await this.post('/api/v1/runners/results', { results: results.map(resultToWire) }, 30_000);
  }

  heartbeat(): Promise<{ runner_id: string; region_code: string; server_time: string }> {
    return this.post('/api/v1/runners/heartbeat', {}, 10_000);
  }
}
