import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime, relativeTime } from '../lib/format';
import { heartbeatSnippets, scheduleInWords, type HeartbeatSchedule } from '../lib/heartbeat-schedule';
import './monitor-detail.heartbeat.css';

function duration(ms: number | null): string {
  if (ms === null) return '';
  return ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

/** A heartbeat monitor's schedule, next expected ping, its pings (durations, output) and snippets. */
export function HeartbeatPanel(props: {
  monitorId: string;
  url: string;
  intervalSeconds: number;
  config: Record<string, unknown>;
}) {
  const api = useApi();
  const pings = useQuery({
    queryKey: ['monitor-pings', props.monitorId],
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/monitors/{id}/pings', {
          params: { path: { id: props.monitorId }, query: { limit: 20 } },
        }),
      ),
  });
  const schedule = props.config.schedule as HeartbeatSchedule;
  const grace = props.config.grace_seconds;
  const maxRun = props.config.max_run_seconds;
  return (
    <section data-testid="heartbeat-panel" className="heartbeat-panel">
      <h2>Heartbeat</h2>
      <p>
        Expected <strong data-testid="heartbeat-schedule">{scheduleInWords(schedule, props.intervalSeconds)}</strong>
        {typeof grace === 'number' && <>, {grace} s of grace</>}
        {typeof maxRun === 'number' && <>, runs of at most {maxRun} s</>}.
        {pings.data && (
          <>
            {' '}
            Next ping expected:{' '}
            <span data-testid="heartbeat-next">
              {pings.data.next_expected_at ? dateTime(pings.data.next_expected_at) : 'never'}
            </span>
            .
          </>
        )}
      </p>
      <p>
        Ping URL: <code className="heartbeat-url">{props.url}</code> (GET or POST; also <code>/start</code>,{' '}
        <code>/fail</code>, <code>/&lt;exit code&gt;</code>, <code>/log</code>, <code>?rid=</code>).
      </p>
      <h3>Pings</h3>
      {pings.data?.data.length === 0 && <p className="muted">No ping yet.</p>}
      {pings.data && pings.data.data.length > 0 && (
        // A narrow screen scrolls the table, not the page (focusable, so a keyboard can scroll it too).
        <div className="table-wrap" role="region" aria-label="Pings" tabIndex={0}>
          <table data-testid="heartbeat-pings">
            <thead>
              <tr>
                <th>When</th>
                <th>Signal</th>
                <th>Run</th>
                <th>Duration</th>
                <th>Exit code</th>
                <th>Output</th>
                <th>From</th>
              </tr>
            </thead>
            <tbody>
              {pings.data.data.map((p) => (
                <tr key={p.id}>
                  <td title={dateTime(p.at)}>{relativeTime(p.at)}</td>
                  <td>{p.kind}</td>
                  <td>{p.rid ?? ''}</td>
                  <td>{duration(p.duration_ms)}</td>
                  <td>{p.exit_code ?? ''}</td>
                  <td>
                    {p.body !== null && <pre className="ping-body">{p.body}</pre>}
                    {(p.body_preview || p.truncated) && (
                      <span className="muted">{p.truncated ? ' (first 100 KB kept)' : ' (preview)'}</span>
                    )}
                  </td>
                  <td className="muted">
                    {p.source_ip ?? ''} {p.user_agent ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Snippets</h3>
      {heartbeatSnippets(props.url).map((s) => (
        <div key={s.title} className="heartbeat-snippet">
          <p>{s.title}</p>
          <pre>
            <code>{s.text}</code>
          </pre>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(s.text)}>
            Copy
          </button>
        </div>
      ))}
    </section>
  );
}
