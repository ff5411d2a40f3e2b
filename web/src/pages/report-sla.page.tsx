import { Link } from 'react-router';
import { can, useSession } from '../api/session';
import { at, count, pct, rate, span } from '../lib/report-format';
import { Figure, ReportFrame, SummaryCards, useReport } from '../ui/report-frame';
import { ReportTable } from '../ui/report-table';

/** A finished period's verdict in words and a shape; no data (nothing monitored) says so. */
function Verdict({ status }: { status: 'met' | 'missed' | 'no_data' }) {
  if (status === 'no_data')
    return (
      <span className="badge badge-pending" data-met="none">
        <span aria-hidden="true">○</span> No data
      </span>
    );
  return status === 'met' ? (
    <span className="badge badge-up" data-met="true">
      <span aria-hidden="true">✔</span> Met
    </span>
  ) : (
    <span className="badge badge-down" data-met="false">
      <span aria-hidden="true">✖</span> Missed
    </span>
  );
}

/**
 * The current period is not over, so it is neither met nor missed: "In progress — X % of the error budget used", or
 * "Budget exhausted" once all of it is spent (the period can no longer meet its target).
 */
function CurrentState({
  status,
  used,
  exhausted,
}: {
  status: 'in_progress' | 'no_data';
  used: number | null;
  exhausted: boolean | null;
}) {
  if (status === 'no_data')
    return (
      <span className="badge badge-pending" data-state="no_data">
        <span aria-hidden="true">○</span> No data yet
      </span>
    );
  const share = used === null ? '' : ` — ${pct(used)} of the error budget used`;
  return exhausted === true ? (
    <span className="badge badge-down" data-state="exhausted">
      <span aria-hidden="true">✖</span> Budget exhausted{share}
    </span>
  ) : (
    <span className="badge badge-pending" data-state="in_progress">
      <span aria-hidden="true">◔</span> In progress{share}
    </span>
  );
}

export default function SlaReportPage() {
  const { session } = useSession();
  const { state, result } = useReport('sla');
  return (
    <ReportFrame kind="sla" state={state} result={result}>
      {(r) => (
        <>
          <SummaryCards>
            <Figure id="targets" label="Targets" value={count(r.summary.targets)} />
            <Figure id="in-progress" label="In progress" value={count(r.summary.in_progress)} />
            <Figure id="exhausted" label="Budget exhausted" value={count(r.summary.budget_exhausted)} />
            <Figure id="no-data" label="No data yet" value={count(r.summary.no_data)} />
            <Figure id="met" label="Earlier periods met" value={count(r.summary.met)} />
            <Figure id="missed" label="Earlier periods missed" value={count(r.summary.missed)} />
          </SummaryCards>
          <p>
            <Link to="/sla-targets">SLA targets</Link>
            {can(session.role).write && (
              <>
                {' '}
                · <Link to="/sla-targets/new">New SLA target</Link>
              </>
            )}
          </p>
          {r.targets.length === 0 && <p className="muted">No SLA target covers these monitors.</p>}
          {r.targets.map((t) => {
            const c = t.current;
            return (
              <section key={t.sla_target_id} className="card sla-target" aria-labelledby={`t-${t.sla_target_id}`}>
                <h2 id={`t-${t.sla_target_id}`}>
                  <Link to={`/sla-targets/${t.sla_target_id}`}>{t.name}</Link>{' '}
                  <span className="muted small">
                    {t.target_percent} % {t.period}
                  </span>{' '}
                  <CurrentState
                    status={c.status}
                    used={c.error_budget_used_percent}
                    exhausted={c.error_budget_exhausted}
                  />
                </h2>
                <p className="muted small">
                  Current period {at(c.from, r.period.timezone)} – {at(c.to, r.period.timezone)},{' '}
                  {span(c.elapsed_seconds)} elapsed
                </p>
                <div className="cards" data-target={t.sla_target_id}>
                  <Figure id="achieved" label="Achieved so far" value={pct(c.achieved_percent)} />
                  <Figure id="budget" label="Error budget" value={span(c.error_budget_seconds)} />
                  <Figure
                    id="used"
                    label="Budget used"
                    value={span(c.error_budget_used_seconds)}
                    note={`${pct(c.error_budget_used_percent)} of the budget`}
                  />
                  <Figure
                    id="remaining"
                    label="Budget left"
                    value={span(c.error_budget_remaining_seconds)}
                    note={`${pct(c.error_budget_remaining_percent)} of the budget${c.error_budget_remaining_seconds < 0 ? ' (overspent)' : ''}`}
                  />
                  <Figure
                    id="burn"
                    label="Burn rate"
                    value={rate(c.burn_rate)}
                    note="1× spends the budget exactly by the period's end"
                  />
                </div>
                <div className="two-columns">
                  <ReportTable columns={['Monitor', 'Achieved', 'Downtime']} caption="Each monitor, current period">
                    {t.monitors.map((m) => (
                      <tr key={m.monitor_id}>
                        <th scope="row">
                          <Link to={`/monitors/${m.monitor_id}`}>{m.name}</Link>
                        </th>
                        <td>{pct(m.achieved_percent)}</td>
                        <td>{span(m.downtime_seconds)}</td>
                      </tr>
                    ))}
                  </ReportTable>
                  <ReportTable
                    columns={['Period', 'Achieved', 'Downtime', 'Verdict']}
                    caption="Earlier periods in the range"
                  >
                    {t.periods.length === 0 && (
                      <tr>
                        <td colSpan={4} className="muted">
                          None: the range has no whole earlier period.
                        </td>
                      </tr>
                    )}
                    {t.periods.map((p) => (
                      <tr key={p.from}>
                        <th scope="row">
                          {at(p.from, r.period.timezone)} – {at(p.to, r.period.timezone)}
                        </th>
                        <td>{pct(p.achieved_percent)}</td>
                        <td>{span(p.downtime_seconds)}</td>
                        <td>
                          <Verdict status={p.status} />
                        </td>
                      </tr>
                    ))}
                  </ReportTable>
                </div>
              </section>
            );
          })}
        </>
      )}
    </ReportFrame>
  );
}
