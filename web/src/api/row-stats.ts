import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { Api } from './client';
import { unwrap } from './client';
import type { HistoryBucket } from './monitors';

const DAY = 86_400_000;
/** The API's most monitors per GET /monitors/history. */
const MAX_IDS = 100;
/** Rows that settle together (a screenful after scrolling stops) are asked for in one go. */
const GATHER_MS = 30;

export interface RowStats {
  daily: HistoryBucket[];
  hourly: HistoryBucket[];
  uptime24h: number | null;
}

interface Waiter {
  resolve: (stats: RowStats) => void;
  reject: (error: unknown) => void;
}

/**
 * The list's bars and sparklines for the rows on screen: ids asked for within GATHER_MS are read with two requests
 * per 100 monitors (90 days daily, 24 h hourly; GET /monitors/history), not two per row.
 */
export class RowStatsBatcher {
  private readonly api: Api;
  private waiting = new Map<string, Waiter[]>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  constructor(api: Api) {
    this.api = api;
  }

  load(id: string): Promise<RowStats> {
    return new Promise((resolve, reject) => {
      this.waiting.set(id, [...(this.waiting.get(id) ?? []), { resolve, reject }]);
      this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
    });
  }

  private async flush(): Promise<void> {
    this.timer = null;
    const batch = this.waiting;
    this.waiting = new Map();
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += MAX_IDS) {
      const chunk = ids.slice(i, i + MAX_IDS);
      try {
        const found = await this.read(chunk);
        for (const id of chunk) {
          // Gone since the list was read: nothing to draw.
          const stats = found.get(id) ?? { daily: [], hourly: [], uptime24h: null };
          for (const w of batch.get(id)!) w.resolve(stats);
        }
      } catch (error) {
        for (const id of chunk) for (const w of batch.get(id)!) w.reject(error);
      }
    }
  }

  private async read(ids: string[]): Promise<Map<string, RowStats>> {
    const now = Date.now();
    const to = new Date(now).toISOString();
    const monitor_ids = ids.join(',');
    const [days, hours] = await Promise.all([
      this.api.client.GET('/api/v1/monitors/history', {
        params: { query: { monitor_ids, resolution: 'day', from: new Date(now - 90 * DAY).toISOString(), to } },
      }),
      this.api.client.GET('/api/v1/monitors/history', {
        params: { query: { monitor_ids, resolution: 'hour', from: new Date(now - DAY).toISOString(), to } },
      }),
    ]);
    const daily = new Map(unwrap(days).data.map((m) => [m.monitor_id, m.buckets]));
    const out = new Map<string, RowStats>();
    for (const m of unwrap(hours).data) {
      const checks = m.buckets.reduce((n, b) => n + b.checks, 0);
      const failures = m.buckets.reduce((n, b) => n + b.failures, 0);
      out.set(m.monitor_id, {
        daily: daily.get(m.monitor_id) ?? [],
        hourly: m.buckets,
        uptime24h: checks > 0 ? ((checks - failures) / checks) * 100 : null,
      });
    }
    return out;
  }
}

export const RowStatsContext = createContext<RowStatsBatcher | null>(null);

/** A monitor's last 90 days (daily uptime) and last 24 h (hourly p95), for the list's bar and sparkline. */
export function useRowStats(id: string, enabled: boolean) {
  const batcher = useContext(RowStatsContext);
  if (!batcher) throw new Error('useRowStats outside <RowStatsContext>');
  return useQuery({
    queryKey: ['monitor', id, 'row-stats'],
    enabled,
    staleTime: 5 * 60_000,
    queryFn: () => batcher.load(id),
  });
}
