import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { components } from './schema';
import { unwrap } from './client';
import { useApi } from './context';

export type Monitor = components['schemas']['Monitor'];
export type HistoryBucket = components['schemas']['HistoryBucket'];
export type MonitorStatus = Monitor['status'];
export type MonitorType = Monitor['type'];

export interface MonitorFilters {
  q?: string;
  /** The status shown: `maintenance` lists monitors an active window covers; `up`/`down`/`pending` leave them out. */
  status?: MonitorStatus;
  type?: MonitorType;
  tag?: string;
  environment?: string;
}

/**
 * Every monitor matching the filters: the first page (200) shows at once, the rest follow page by page in the
 * background, so a list of 10,000 is usable before it has all arrived.
 */
export function useAllMonitors(filters: MonitorFilters) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: ['monitors', 'all', filters],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.client.GET('/api/v1/monitors', {
          params: { query: { ...filters, limit: 200, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Comparing 10,000 monitors deeply with the previous answer on every page costs more than it saves.
    structuralSharing: false,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  // While pages arrive, the list (and whatever sorts and draws it) is handed on at most once a second, then once
  // more when the last page is in: 50 pages would otherwise re-sort and re-render 10,000 rows 50 times.
  const complete = query.isSuccess && !hasNextPage;
  const shown = useRef<{ at: number; pages: number; monitors: Monitor[] }>({ at: 0, pages: 0, monitors: [] });
  const pages = query.data?.pages;
  const monitors = useMemo(() => {
    const now = Date.now();
    const last = shown.current;
    if (!pages) return [];
    if (complete || last.pages === 0 || now - last.at >= 1000 || pages.length < last.pages) {
      shown.current = { at: now, pages: pages.length, monitors: pages.flatMap((p) => p.data) };
    }
    return shown.current.monitors;
  }, [pages, complete]);
  return { ...query, monitors, complete };
}

/** Summary of buckets: uptime weighted by checks. */
export function uptimeOf(buckets: HistoryBucket[]): number | null {
  const checks = buckets.reduce((n, b) => n + b.checks, 0);
  const failures = buckets.reduce((n, b) => n + b.failures, 0);
  return checks > 0 ? ((checks - failures) / checks) * 100 : null;
}
