import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { count } from '../lib/report-format';
import { useReportQuery } from '../ui/report-filters';
import { Figure, ReportFrame } from '../ui/report-frame';

const KIND_LABEL = {
  noisy: 'Noisy',
  flapping: 'Flapping',
  misconfigured: 'Misconfigured',
  never_succeeded: 'Never succeeded',
} as const;

export default function MonitorHealthReportPage() {
  const api = useApi();
  const state = useReportQuery();
  const result = useQuery({
    queryKey: ['report', 'monitor-health', state.query],
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/reports/monitor-health', { params: { query: state.query } })),
  });
  return (
    <ReportFrame kind="monitor-health" state={state} result={result}>
      {(r) => {
        const flagged = r.monitors.filter((m) => m.findings.length > 0);
        const healthy = r.monitors.length - flagged.length;
        return (
          <>
            <section aria-labelledby="summary" className="cards">
              <h2 id="summary" className="visually-hidden">
                Summary
              </h2>
              <Figure id="monitors" label="Monitors judged" value={count(r.summary.monitors)} />
              <Figure id="flagged" label="Flagged" value={count(r.summary.flagged)} />
              {(Object.keys(KIND_LABEL) as (keyof typeof KIND_LABEL)[]).map((k) => (
                <Figure key={k} id={k} label={KIND_LABEL[k]} value={count(r.summary.findings[k])} />
              ))}
            </section>
            <section aria-labelledby="flagged-list">
              <h2 id="flagged-list">Flagged monitors</h2>
              {flagged.length === 0 ? (
                <p className="muted">No monitor was flagged in this period.</p>
              ) : (
                <ul className="plain findings">
                  {flagged.map((m) => (
                    <li key={m.monitor_id} className="card" data-monitor={m.monitor_id}>
                      <h3>
                        <Link to={`/monitors/${m.monitor_id}`}>{m.name}</Link>
                      </h3>
                      <ul>
                        {m.findings.map((f, i) => (
                          <li key={i}>
                            <strong>
                              <span aria-hidden="true">! </span>
                              {KIND_LABEL[f.kind]}
                            </strong>
                            : {f.reason}
                          </li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ul>
              )}
              <p className="muted small">
                {healthy} of {r.monitors.length} monitors have no finding. The rules and thresholds are in the
                report&apos;s closing note (PDF) and docs/reports.md.
              </p>
            </section>
          </>
        );
      }}
    </ReportFrame>
  );
}
