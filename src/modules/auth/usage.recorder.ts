import type { Clock } from '../../platform/clock.ts';
import type { ApiKeyUsageRow } from './auth.tables.ts';
import type { BudgetClass } from './rate-limit.ts';
import type { UsageRepository } from './usage.repository.ts';

const MINUTE = 60_000;

/**
 * Per key per minute counts, aggregated in memory and written in batches by `flush()` (every few
 * seconds by the usage-flush background role, and at shutdown): never a database write per request.
 */
export class UsageRecorder {
  private readonly repository: UsageRepository;
  private readonly clock: Clock;
  private pending = new Map<string, ApiKeyUsageRow>();
  private lastUsed = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  constructor(deps: { repository: UsageRepository; clock: Clock }) {
    this.repository = deps.repository;
    this.clock = deps.clock;
  }

  record(keyId: string, organizationId: string, budget: BudgetClass, status: number): void {
    const now = this.clock.now();
    const minute = now - (now % MINUTE);
    const k = `${keyId}|${minute}`;
    let row = this.pending.get(k);
    if (!row) {
      row = {
        key_id: keyId,
        organization_id: organizationId,
        minute,
        read_count: 0,
        write_count: 0,
        delete_count: 0,
        status_2xx: 0,
        status_3xx: 0,
        status_4xx: 0,
        status_5xx: 0,
      };
      this.pending.set(k, row);
    }
    row[`${budget}_count`] += 1;
    if (status >= 500) row.status_5xx += 1;
    else if (status >= 400) row.status_4xx += 1;
    else if (status >= 300) row.status_3xx += 1;
    else row.status_2xx += 1;
    const prev = this.lastUsed.get(keyId);
    if (prev === undefined || prev < now) this.lastUsed.set(keyId, now);
  }

  get pendingBuckets(): number {
    return this.pending.size;
  }

  /** Writes what was counted since the last flush; on failure the counts are kept for the next one. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0 && this.lastUsed.size === 0) return;
    const rows = [...this.pending.values()];
    const lastUsed = this.lastUsed;
    this.pending = new Map();
    this.lastUsed = new Map();
    this.flushing = (async () => {
      try {
        await this.repository.addBuckets(rows, lastUsed);
      } catch (err) {
        for (const r of rows) this.mergeBack(r);
        for (const [k, at] of lastUsed) if ((this.lastUsed.get(k) ?? 0) < at) this.lastUsed.set(k, at);
        throw err;
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private mergeBack(r: ApiKeyUsageRow): void {
    const k = `${r.key_id}|${r.minute}`;
    const cur = this.pending.get(k);
    if (!cur) {
      this.pending.set(k, r);
      return;
    }
    for (const f of [
      'read_count',
      'write_count',
      'delete_count',
      'status_2xx',
      'status_3xx',
      'status_4xx',
      'status_5xx',
    ] as const) {
      cur[f] += r[f];
    }
  }
}
