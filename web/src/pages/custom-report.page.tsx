import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { useSession } from '../api/session';
import { at } from '../lib/report-format';
import { CustomReportSection } from '../ui/custom-report-section';
import { canEditReport, periodLabel, useMemberNames, VISIBILITY_LABELS } from './custom-report.shared';
import NotFoundPage from './not-found.page';

/** A custom report rendered: its JSON as one section per widget, and the same report as JSON, CSV and PDF files. */
export default function CustomReportPage() {
  const { id } = useParams() as { id: string };
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const names = useMemberNames();
  const record = useQuery({
    queryKey: ['custom-report', id],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/custom-reports/{id}', { params: { path: { id } } })),
    retry: (n, e) => !(e instanceof ApiError && e.status < 500) && n < 2,
  });
  const rendered = useQuery({
    queryKey: ['custom-report', id, 'render'],
    enabled: record.isSuccess,
    queryFn: async () =>
      unwrap(
        await api.client.GET('/api/v1/custom-reports/{id}/render', {
          params: { path: { id }, query: { format: 'json' } },
        }),
      ),
  });
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.client.DELETE('/api/v1/custom-reports/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['custom-reports'] });
      void navigate('/custom-reports');
    },
  });
  // A report this person may not see answers 404 like one that does not exist: the page says the same.
  if (record.error instanceof ApiError && record.error.status === 404) return <NotFoundPage />;
  if (record.isError) return <p role="alert">{record.error.message}</p>;
  if (!record.data) return <p role="status">Loading…</p>;
  const r = record.data;
  const editable = canEditReport(r, session);
  const file = (format: string) => `/api/v1/custom-reports/${id}/render?format=${format}`;
  const doc = rendered.data;
  return (
    <>
      <div className="page-head">
        <h1>{r.name}</h1>
        {editable && (
          <div className="actions">
            <Link className="button" to={`/custom-reports/${id}/edit`}>
              Edit
            </Link>
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (window.confirm(`Delete the custom report “${r.name}”?`)) remove.mutate();
              }}
            >
              Delete
            </button>
          </div>
        )}
      </div>
      {remove.isError && <p role="alert">{remove.error.message}</p>}
      <dl className="facts">
        <div>
          <dt>Period</dt>
          <dd>
            {periodLabel(r.period)}
            {doc && (
              <span className="muted">
                {' '}
                ({at(doc.period.from, doc.period.timezone)} – {at(doc.period.to, doc.period.timezone)},{' '}
                {doc.period.timezone})
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Owner</dt>
          <dd>{r.owner_id === session.user.id ? 'You' : (names.get(r.owner_id) ?? 'Service account')}</dd>
        </div>
        <div>
          <dt>Visibility</dt>
          <dd>
            {VISIBILITY_LABELS[r.visibility]}
            {r.visibility === 'shared' &&
              `: ${r.shared_with_user_ids.map((u) => names.get(u) ?? u).join(', ') || 'nobody yet'}`}
          </dd>
        </div>
      </dl>
      <p className="downloads">
        Download:{' '}
        <a href={file('json')} download={`custom-report-${id}.json`}>
          JSON
        </a>{' '}
        ·{' '}
        <a href={file('csv')} download>
          CSV
        </a>{' '}
        ·{' '}
        <a href={file('pdf')} download>
          PDF
        </a>
      </p>
      {rendered.isPending && <p role="status">Loading…</p>}
      {rendered.isError && (
        <p role="alert" className="form-error">
          {rendered.error.message}
        </p>
      )}
      {doc && (
        <>
          <p className="muted small">Generated {at(doc.generated_at, doc.period.timezone)}.</p>
          {doc.sections.map((s, i) => (
            <CustomReportSection key={`${i}:${s.title}`} index={i} section={s} />
          ))}
        </>
      )}
    </>
  );
}
