import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

export type LiveMode = 'connecting' | 'live' | 'polling';

const POLL_MS = 15_000;
const EVENTS = [
  'monitor.status',
  'incident.opened',
  'incident.acknowledged',
  'incident.resolved',
  'execution.recorded',
];

interface LiveEvent {
  monitor_id?: string;
  incident_id?: string;
}

/**
 * Keeps the cached pages current: the API's event stream invalidates what an event touches; when the stream
 * cannot be had (closed by the server, a proxy that buffers), every active query is refetched every 15 s instead.
 * After sleep or a network change the browser fires `visibilitychange`/`online`: everything is refetched then,
 * and the stream is reopened (EventSource resumes with Last-Event-ID by itself).
 */
export function useLiveUpdates(enabled: boolean): LiveMode {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('connecting');

  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;

    const startPolling = () => {
      setMode('polling');
      poll ??= setInterval(() => void queryClient.invalidateQueries({ type: 'active' }), POLL_MS);
    };
    const stopPolling = () => {
      if (poll) clearInterval(poll);
      poll = null;
    };
    const onEvent = (type: string, raw: string) => {
      let data: LiveEvent;
      try {
        data = JSON.parse(raw) as LiveEvent;
      } catch {
        return;
      }
      if (type === 'monitor.status' || type === 'execution.recorded') {
        void queryClient.invalidateQueries({ queryKey: ['monitors'] });
        if (data.monitor_id) void queryClient.invalidateQueries({ queryKey: ['monitor', data.monitor_id] });
        void queryClient.invalidateQueries({ queryKey: ['overview'] });
      }
      if (type.startsWith('incident.')) {
        void queryClient.invalidateQueries({ queryKey: ['incidents'] });
        if (data.incident_id) void queryClient.invalidateQueries({ queryKey: ['incident', data.incident_id] });
        if (data.monitor_id) void queryClient.invalidateQueries({ queryKey: ['monitor', data.monitor_id] });
        void queryClient.invalidateQueries({ queryKey: ['overview'] });
      }
    };
    const open = () => {
      source?.close();
      source = new EventSource('/api/v1/events/stream', { withCredentials: true });
      source.onopen = () => {
        stopPolling();
        setMode('live');
      };
      source.onerror = () => {
        // The browser retries by itself while the stream is CONNECTING; a CLOSED one (an HTTP error) stays closed.
        if (source?.readyState === EventSource.CLOSED) {
          startPolling();
          retry ??= setTimeout(() => {
            retry = null;
            open();
          }, 60_000);
        } else {
          startPolling();
        }
      };
      for (const type of EVENTS) source.addEventListener(type, (e) => onEvent(type, (e as MessageEvent<string>).data));
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
      document.removeEventListener('visibilitychange', wake);
      window.removeEventListener('online', wake);
    };
  }, [enabled, queryClient]);

  return mode;
}
