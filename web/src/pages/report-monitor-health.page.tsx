import { Link } from 'react-router';
import { count } from '../lib/report-format';
import { Figure, ReportFrame, SummaryCards, useReport } from '../ui/report-frame';
import { plural } from '../lib/format';

const KIND_LABEL = {
  noisy: 'Noisy',
  flapping: 'Flapping',
  misconfigured: 'Misconfigured',
  never_succeeded: 'Never succeeded',
} as const;

export default function MonitorHealthReportPage() {
  const { state, result } = useReport('monitor-health');
  return (
    <ReportFrame kind="monitor-health" state={state} result={result}>
      {(r) => {
        const flagged = r.monitors.filter((m) => m.findings.length > 0);
        const healthy = r.monitors.length - flagged.length;
        return (
          <>
            <SummaryCards>
              <Figure id="monitors" label="Monitors judged" value={count(r.summary.monitors)} />
              <Figure id="flagged" label="Flagged" value={count(r.summary.flagged)} />
              {(Object.keys(KIND_LABEL) as (keyof typeof KIND_LABEL)[]).map((k) => (
                <Figure key={k} id={k} label={KIND_LABEL[k]} value={count(r.summary.findings[k])} />
              ))}
            </SummaryCards>
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
                {healthy} of {plural(r.monitors.length, 'monitor')} {healthy === 1 ? 'has' : 'have'} no finding. The
                rules and thresholds are in the report&apos;s closing note (PDF) and docs/reports.md.
              </p>
            </section>
          </>
        );
      }}
    </ReportFrame>
  );
}
