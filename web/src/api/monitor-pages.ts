import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { components } from './schema';
import { unwrap, type Api } from './client';
import { useApi } from './context';
import type { MonitorFilters } from './monitors';

export type MonitorSummary = components['schemas']['MonitorSummary'];
/** Orders the server pages in (GET /monitors `sort`). */
export type MonitorSort = 'status' | 'name' | 'last_checked' | 'type';

/** Rows per request: a screenful and a half, so that the first answer is small and fills the screen. */
export const PAGE_ROWS = 100;

/**
 * The monitors list as the server filters, sorts and pages it (issue 36 item 7): only the pages the rows on screen
 * need are fetched (`loadMore` when the view nears the last loaded row), as summaries (no configuration), with the
 * total from the first page so the scrollbar has its full length from the start.
 */
export function useMonitorPages(filters: MonitorFilters, sort: MonitorSort) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: ['monitors', 'summaries', filters, sort],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.client.GET('/api/v1/monitors/summaries', {
          params: { query: { ...filters, sort, limit: PAGE_ROWS, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    structuralSharing: false,
  });
  const pages = query.data?.pages;
  const rows = useMemo(() => pages?.flatMap((p) => p.data) ?? [], [pages]);
  const total = pages?.[0]?.total ?? rows.length;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  /** Asks for the next page when row `index` (the last one drawn) is within a page of the end of what is loaded. */
  const loadNear = (index: number) => {
    if (hasNextPage && !isFetchingNextPage && index >= rows.length - PAGE_ROWS / 2) void fetchNextPage();
  };
  return { ...query, rows, total, loadNear };
}

/**
 * Every monitor matching the filters, ids and tags only, read when a bulk action on "all matching" runs (not
 * before): 200 summaries per request.
 */
export async function allMatching(api: Api, filters: MonitorFilters): Promise<MonitorSummary[]> {
  const found: MonitorSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = unwrap(
      await api.client.GET('/api/v1/monitors/summaries', {
        params: { query: { ...filters, limit: 200, ...(cursor ? { cursor } : {}) } },
      }),
    );
    found.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return found;
}
