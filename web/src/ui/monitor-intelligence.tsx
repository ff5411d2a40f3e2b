import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { EventItem, occurredAt } from './intelligence-events';
import { SecurityGrades } from './security-grades';

/** The monitor detail page's intelligence: its security grades and its five latest events, with a way to all. */
export function MonitorIntelligence({ monitorId }: { monitorId: string }) {
  const api = useApi();
  const events = useQuery({
    queryKey: ['intelligence', 'events', 'monitor', monitorId, 'latest'],
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/intelligence/events', {
          params: { query: { monitor_id: monitorId, limit: 5 } },
        }),
      ),
  });
  return (
    <section aria-labelledby="intelligence" className="monitor-intelligence">
      <h2 id="intelligence">Intelligence</h2>
      <SecurityGrades monitorId={monitorId} headingLevel={3} />
      <h3>Latest events</h3>
      {events.isError && <p role="alert">{events.error.message}</p>}
      {events.data?.data.length === 0 && <p className="muted">No changes, anomalies or grade drops yet.</p>}
      {events.data && events.data.data.length > 0 && (
        <ol className="timeline">
          {[...events.data.data]
            .sort((a, b) => Date.parse(occurredAt(b)) - Date.parse(occurredAt(a)))
            .map((e) => (
              <EventItem key={e.id} event={e} showMonitor={false} />
            ))}
        </ol>
      )}
      <p>
        <Link to={`/intelligence?monitor_id=${encodeURIComponent(monitorId)}`}>All intelligence for this monitor</Link>
      </p>
    </section>
  );
}
