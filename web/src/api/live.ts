import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Monitor } from './monitors';

export type LiveMode = 'connecting' | 'live' | 'polling';

const POLL_MS = 15_000;
const FLUSH_MS = 1_000;

interface LiveEvent {
  monitor_id?: string;
  incident_id?: string;
  status?: string;
  at?: string;
}

type MonitorPatch = Partial<Pick<Monitor, 'status' | 'status_changed_at' | 'last_checked_at' | 'paused'>>;
type MonitorPages = InfiniteData<{ data: Monitor[]; next_cursor: string | null }>;

/**
 * Applies a second's worth of monitor changes to every cached monitor list at once (with 10,000 monitors the
 * stream brings many executions a second: one pass per flush, not one per event). A list filtered by status is
 * fetched again instead, since a changed status may move a monitor in or out of it.
 */
function patchLists(queryClient: QueryClient, patches: Map<string, MonitorPatch>): void {
  // The monitors page's server-sorted summary pages (api/monitor-pages.ts) are patched alike: a row keeps its place
  // until the list is read again (a sort by status or last check is the server's, as of that read).
  const lists = [
    ...queryClient.getQueryCache().findAll({ queryKey: ['monitors', 'all'] }),
    ...queryClient.getQueryCache().findAll({ queryKey: ['monitors', 'summaries'] }),
  ];
  const statusChanged = [...patches.values()].some((p) => p.status !== undefined);
  // The overview's counts (GET /monitors/counts) are read again: a changed status moves a monitor between them.
  if (statusChanged) void queryClient.invalidateQueries({ queryKey: ['monitors', 'counts'] });
  for (const query of lists) {
    const filters = query.queryKey[2] as { status?: string } | undefined;
    if (filters?.status && statusChanged) {
      void queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true });
      continue;
    }
    queryClient.setQueryData<MonitorPages>(query.queryKey, (old) =>
      old
        ? {
            ...old,
            pages: old.pages.map((page) => ({
              ...page,
              data: page.data.map((m) => {
                const patch = patches.get(m.id);
                return patch ? { ...m, ...patch } : m;
              }),
            })),
          }
        : old,
    );
  }
}

/**
 * Keeps the cached pages current: the API's event stream (GET /api/v1/events/stream) patches or invalidates what
 * an event touches; when the stream cannot be had (closed by the server, a proxy that buffers), every active query
 * is refetched every 15 s instead. After sleep or a network change the browser fires `visibilitychange`/`online`:
 * everything is refetched then, and the stream is reopened (EventSource resumes with Last-Event-ID by itself).
 */
export function useLiveUpdates(enabled: boolean): LiveMode {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('connecting');

  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let flush: ReturnType<typeof setTimeout> | null = null;
    const pending = new Map<string, MonitorPatch>();

    const startPolling = () => {
      setMode('polling');
      poll ??= setInterval(() => void queryClient.invalidateQueries({ type: 'active' }), POLL_MS);
    };
    const stopPolling = () => {
      if (poll) clearInterval(poll);
      poll = null;
    };
    const queue = (id: string, patch: MonitorPatch) => {
      pending.set(id, { ...pending.get(id), ...patch });
      flush ??= setTimeout(() => {
        flush = null;
        const batch = new Map(pending);
        pending.clear();
        patchLists(queryClient, batch);
      }, FLUSH_MS);
    };
    const onEvent = (type: string, raw: string) => {
      let data: LiveEvent;
      try {
        data = JSON.parse(raw) as LiveEvent;
      } catch {
        return;
      }
      const monitorId = data.monitor_id;
      if (type === 'monitor.status' && monitorId) {
        // Every change comes (pending → up, pause, resume …), so the lists need no reload for it.
        const status = data.status as Monitor['status'];
        queue(monitorId, { status, status_changed_at: data.at, paused: status === 'paused' });
        void queryClient.invalidateQueries({ queryKey: ['monitor', monitorId, 'detail'] });
      }
      if (type === 'execution.recorded' && monitorId) {
        queue(monitorId, { last_checked_at: data.at });
        void queryClient.invalidateQueries({ queryKey: ['monitor', monitorId, 'executions'] });
        void queryClient.invalidateQueries({ queryKey: ['monitor', monitorId, 'detail'] });
      }
      if (type.startsWith('incident.')) {
        void queryClient.invalidateQueries({ queryKey: ['incidents'] });
        if (data.incident_id) void queryClient.invalidateQueries({ queryKey: ['incident', data.incident_id] });
      }
    };
    const open = () => {
      source?.close();
      source = new EventSource('/api/v1/events/stream', { withCredentials: true });
      source.addEventListener('ready', () => {
        stopPolling();
        setMode('live');
      });
      // Too much was missed to replay: start over from the server's current state.
      source.addEventListener('resync', () => void queryClient.invalidateQueries());
      source.onerror = () => {
        startPolling();
        // The browser retries by itself while the stream is CONNECTING; a CLOSED one (an HTTP error) stays closed.
        if (source?.readyState === EventSource.CLOSED) {
          retry ??= setTimeout(() => {
            retry = null;
            open();
          }, 60_000);
        }
      };
      for (const type of [
        'monitor.status',
        'incident.opened',
        'incident.acknowledged',
        'incident.resolved',
        'execution.recorded',
      ]) {
        source.addEventListener(type, (e) => onEvent(type, (e as MessageEvent<string>).data));
      }
    };
    const wake = () => {
      if (document.visibilityState !== 'visible') return;
      void queryClient.invalidateQueries();
      if (!source || source.readyState === EventSource.CLOSED) open();
    };
    open();
    document.addEventListener('visibilitychange', wake);
    window.addEventListener('online', wake);
    return () => {
      source?.close();
      stopPolling();
      if (retry) clearTimeout(retry);
      if (flush) clearTimeout(flush);
      document.removeEventListener('visibilitychange', wake);
      window.removeEventListener('online', wake);
    };
  }, [enabled, queryClient]);

  return mode;
}
