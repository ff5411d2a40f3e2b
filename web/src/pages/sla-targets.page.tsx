import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { errorBudget } from '../lib/error-budget';
import { span } from '../lib/report-format';
import { PlanGate } from '../ui/report-frame';
import { useSlaTargets } from '../ui/report-sla-targets';

export default function SlaTargetsPage() {
  const api = useApi();
  const { session } = useSession();
  const targets = useSlaTargets(api);
  const monitors = useQuery({
    queryKey: ['monitors', 'names'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/monitors', { params: { query: { limit: 200 } } })),
  });
  const names = new Map((monitors.data?.data ?? []).map((m) => [m.id, m.name]));
  const error = targets.error instanceof ApiError ? targets.error : null;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/reports">Reports</Link> /
      </p>
      <div className="page-head">
        <h1>SLA targets</h1>
        {can(session.role).write && (
          <Link className="button primary" to="/sla-targets/new">
            New SLA target
          </Link>
        )}
      </div>
      <p className="muted">
        A target promises an availability for a set of monitors over each day, week, month or quarter. The{' '}
        <Link to="/reports/sla">SLA report</Link> shows where each stands: achieved so far, budget left, burn rate.
      </p>
      {error?.code === 'plan_upgrade_required' ? (
        <PlanGate error={error} />
      ) : (
        targets.isError && <p role="alert">{targets.error.message}</p>
      )}
      {targets.isPending && <p role="status">Loading…</p>}
      {targets.data?.length === 0 && <p>No SLA targets yet.</p>}
      {targets.data && targets.data.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Target</th>
                <th scope="col">Period</th>
                <th scope="col">Error budget (average period)</th>
                <th scope="col">Monitors</th>
              </tr>
            </thead>
            <tbody>
              {targets.data.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <Link to={`/sla-targets/${t.id}`}>{t.name}</Link>
                  </th>
                  <td>{t.target_percent} %</td>
                  <td>{t.period}</td>
                  <td>{span(errorBudget(t.target_percent, t.period)?.mean)}</td>
                  <td>{t.monitor_ids.map((id) => names.get(id) ?? id).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
