import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { unwrap } from './client';
import { useApi } from './context';
import type { MonitorStatus } from './monitors';

export type TrendPeriod = '24h' | '7d';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** One bar of the overview's charts: every monitor's checks in the bucket, and the incidents opened in it. */
export interface TrendBucket {
  start: number;
  end: number;
  checks: number;
  failures: number;
  /** Checks-weighted uptime across monitors; null when nothing was checked. */
  uptime: number | null;
  opened: number;
}

export interface Trend {
  period: TrendPeriod;
  buckets: TrendBucket[];
}

/**
 * The window's buckets on the API's own boundaries (UTC hours and days: GET /monitors/history rolls up so): 24
 * hours ending with the current one, or 7 days ending with today.
 */
export function trendBuckets(period: TrendPeriod, now: number): { start: number; end: number }[] {
  const size = period === '24h' ? HOUR : DAY;
  const count = period === '24h' ? 24 : 7;
  const current = Math.floor(now / size) * size;
  return Array.from({ length: count }, (_, i) => {
    const start = current - (count - 1 - i) * size;
    return { start, end: start + size };
  });
}

/**
 * Uptime per bucket across all monitors (GET /monitors/history/total: the server sums every monitor's checks, so a
 * busy monitor weighs more than a quiet one) and incidents opened per bucket (GET /incidents/history, also counted
 * by the server): two requests whatever the number of monitors and incidents.
 */
export function useOverviewTrend(period: TrendPeriod, enabled: boolean) {
  const api = useApi();
  return useQuery({
    // Under 'incidents' so that an incident event refreshes the chart too (api/live.ts invalidates that prefix).
    queryKey: ['incidents', 'overview-trend', period],
    enabled,
    refetchInterval: 60_000,
    queryFn: async (): Promise<Trend> => {
      const now = Date.now();
      const windows = trendBuckets(period, now);
      const from = new Date(windows[0]!.start).toISOString();
      const to = new Date(now).toISOString();
      const buckets: TrendBucket[] = windows.map((w) => ({ ...w, checks: 0, failures: 0, uptime: null, opened: 0 }));
      const index = (at: number) => windows.findIndex((w) => at >= w.start && at < w.end);
      const resolution = period === '24h' ? 'hour' : 'day';
      const total = unwrap(
        await api.client.GET('/api/v1/monitors/history/total', { params: { query: { resolution, from, to } } }),
      );
      for (const b of total.data) {
        const at = index(Date.parse(b.start));
        if (at < 0) continue;
        buckets[at]!.checks += b.checks;
        buckets[at]!.failures += b.failures;
      }
      for (const b of buckets) b.uptime = b.checks > 0 ? ((b.checks - b.failures) / b.checks) * 100 : null;

      const opened = unwrap(
        await api.client.GET('/api/v1/incidents/history', { params: { query: { resolution, from, to } } }),
      );
      for (const b of opened.data) {
        const at = index(Date.parse(b.start));
        if (at >= 0) buckets[at]!.opened += b.opened;
      }
      return { period, buckets };
    },
  });
}

/** Open incidents: opened and acknowledged (up to 200 of each; the overview shows a handful and links to all). */
export function useOpenIncidents() {
  const api = useApi();
  return useQuery({
    queryKey: ['incidents', 'open'],
    queryFn: async () => {
      const [opened, acknowledged] = await Promise.all([
        api.client.GET('/api/v1/incidents', { params: { query: { status: 'opened', limit: 200 } } }),
        api.client.GET('/api/v1/incidents', { params: { query: { status: 'acknowledged', limit: 200 } } }),
      ]);
      const list = [...unwrap(opened).data, ...unwrap(acknowledged).data];
      return list.sort((a, b) => Date.parse(b.opened_at) - Date.parse(a.opened_at));
    },
  });
}

/** How many monitors show each status (GET /monitors/counts: one grouped query on the server, not the list). */
export function useMonitorCounts() {
  const api = useApi();
  return useQuery({
    // Under 'monitors': api/live.ts reads it again when a monitor's status changes.
    queryKey: ['monitors', 'counts'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/monitors/counts')),
  });
}

/** The most monitors of one state the overview reads to pick the longest outages from. */
export const ATTENTION_LIMIT = 100;

/**
 * The first monitors showing `status` (a page filtered by the server, at most ATTENTION_LIMIT), longest in that
 * state first: what "Needs attention" lists. Kept as an infinite query under ['monitors', 'all', {status}] so that
 * api/live.ts re-reads it when a status changes, as it does the monitor list filtered by status.
 */
export function useMonitorsShowing(status: MonitorStatus, enabled: boolean) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: ['monitors', 'all', { status }, 'attention'],
    enabled,
    initialPageParam: undefined as string | undefined,
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/monitors', {
          params: { query: { status, limit: ATTENTION_LIMIT } },
        }),
      ),
    getNextPageParam: () => undefined,
  });
  const monitors = (query.data?.pages[0]?.data ?? [])
    .slice()
    .sort((a, b) => a.status_changed_at.localeCompare(b.status_changed_at));
  return { ...query, monitors };
}
