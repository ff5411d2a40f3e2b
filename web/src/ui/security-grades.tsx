import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import type { components } from '../api/schema';
import { dateTime, relativeTime } from '../lib/format';

type Grade = components['schemas']['MonitorGrades']['current'][number];

const KIND_LABELS: Record<Grade['kind'], string> = {
  tls: 'TLS',
  domain: 'Domain (DNS, DNSSEC, email, web)',
};

/** The letters that are not a score say why in words (SSL Labs' meaning). */
const MEANING: Record<string, string> = { T: 'certificate not trusted', M: 'certificate name mismatch' };

/** Good, middling or bad: for the badge's shape and colour (the letter itself is always shown). */
function tone(grade: string): { badge: string; icon: string } {
  if (grade.startsWith('A')) return { badge: 'badge-up', icon: '▲' };
  if (grade === 'B' || grade === 'C') return { badge: 'badge-pending', icon: '●' };
  return { badge: 'badge-down', icon: '▼' };
}

/**
 * A monitor's current TLS and domain grades with the reasons behind them (and what a single client cannot test).
 * https and tls monitors are graded about once a day after their first check; others have none.
 */
export function SecurityGrades({ monitorId, headingLevel = 2 }: { monitorId: string; headingLevel?: 2 | 3 }) {
  const api = useApi();
  const grades = useQuery({
    queryKey: ['monitor', monitorId, 'grades'],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/monitors/{id}/grades', { params: { path: { id: monitorId } } })),
  });
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const headingId = `grades-${monitorId}`;
  return (
    <section aria-labelledby={headingId} className="security-grades">
      <Heading id={headingId}>Security grades</Heading>
      {grades.isPending && <p role="status">Loading grades…</p>}
      {grades.isError && <p role="alert">{grades.error.message}</p>}
      {grades.data?.current.length === 0 && (
        <p className="muted">
          Not graded yet. HTTPS and TLS monitors are graded about once a day, after their first check.
        </p>
      )}
      <div className="cards">
        {grades.data?.current.map((g) => {
          const t = tone(g.grade);
          return (
            <div key={g.kind} className="card grade-card" data-grade-kind={g.kind}>
              <p className="stat-label">{KIND_LABELS[g.kind]}</p>
              <p className="stat-value">
                <span className={`badge ${t.badge} grade`} data-grade={g.grade}>
                  <span aria-hidden="true">{t.icon}</span> <span className="visually-hidden">Grade</span> {g.grade}
                </span>{' '}
                <span className="muted small">
                  {MEANING[g.grade] ? `${MEANING[g.grade]} · ` : ''}score {Math.round(g.score)}
                </span>
              </p>
              <p className="muted small">
                Graded <time dateTime={g.graded_at}>{relativeTime(g.graded_at)}</time>
              </p>
              {g.reasons.length > 0 ? (
                <ul className="reasons">
                  {g.reasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              ) : (
                <p className="small">No findings.</p>
              )}
              {g.not_tested.length > 0 && (
                <details>
                  <summary>Not tested ({g.not_tested.length})</summary>
                  <ul className="small">
                    {g.not_tested.map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
          );
        })}
      </div>
      {grades.data && grades.data.history.length > 1 && (
        <details>
          <summary>History ({grades.data.history.length} gradings that changed something)</summary>
          <ul className="plain small">
            {grades.data.history.map((g) => (
              <li key={`${g.kind}-${g.graded_at}`}>
                <time dateTime={g.graded_at}>{dateTime(g.graded_at)}</time> {KIND_LABELS[g.kind]}: {g.grade} (score{' '}
                {Math.round(g.score)})
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
