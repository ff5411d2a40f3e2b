import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { useAllMonitors } from '../api/monitors';
import { can, useSession } from '../api/session';
import { Field, FormError, useFocusFirstInvalid } from '../ui/form';

/**
 * Editor (slug, title, monitors, visibility, SLA targets shown) with a preview of the public page as it is served;
 * the preview's address changes after each save so that the page's 30 s cache never shows the page before it.
 */
export default function StatusPageEditPage() {
  const { id } = useParams();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const writable = can(session.role).write;
  const form = useRef<HTMLFormElement>(null);
  const existing = useQuery({
    queryKey: ['status-page', id],
    enabled: id !== undefined,
    queryFn: async () => unwrap(await api.client.GET('/api/v1/status-pages/{id}', { params: { path: { id: id! } } })),
  });
  const monitors = useAllMonitors({});
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  const [isPublic, setPublic] = useState(true);
  const [showSla, setShowSla] = useState(false);
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [previewKey, setPreviewKey] = useState(0);
  useEffect(() => {
    if (existing.data) {
      setSlug(existing.data.slug);
      setTitle(existing.data.title);
      setPublic(existing.data.public);
      setShowSla(existing.data.show_sla_targets);
      setMonitorIds(existing.data.monitor_ids);
    }
  }, [existing.data]);
  const save = useMutation({
    mutationFn: async () => {
      const body = { slug, title, public: isPublic, show_sla_targets: showSla, monitor_ids: monitorIds };
      const header = { 'Idempotency-Key': crypto.randomUUID() };
      return id
        ? unwrap(await api.client.PATCH('/api/v1/status-pages/{id}', { params: { path: { id }, header }, body }))
        : unwrap(await api.client.POST('/api/v1/status-pages', { params: { header }, body }));
    },
    onSuccess: (page) => {
      void queryClient.invalidateQueries({ queryKey: ['status-pages'] });
      queryClient.setQueryData(['status-page', page.id], page);
      setPreviewKey((k) => k + 1);
      if (!id) void navigate(`/status-pages/${page.id}`, { replace: true });
    },
  });
  const remove = useMutation({
    mutationFn: async () =>
      unwrap(await api.client.DELETE('/api/v1/status-pages/{id}', { params: { path: { id: id! } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['status-pages'] });
      void navigate('/status-pages');
    },
  });
  const error = save.error instanceof ApiError ? save.error : null;
  useFocusFirstInvalid(form, save.error);
  const shown = monitors.monitors.filter((m) => !filter || m.name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <>
      <h1>{id ? `Status page: ${existing.data?.title ?? ''}` : 'New status page'}</h1>
      <div className="two-columns">
        <form
          ref={form}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <fieldset disabled={!writable}>
            <FormError error={save.error} fields={['slug', 'title', 'monitor_ids', 'public', 'show_sla_targets']} />
            <Field label="Title" name="title" error={error} required>
              {({ id: i, describedBy, invalid }) => (
                <input
                  id={i}
                  required
                  value={title}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(e) => setTitle(e.target.value)}
                />
              )}
            </Field>
            <Field
              label="Slug"
              name="slug"
              error={error}
              required
              hint="Served at /status/{slug}; lower-case letters, digits and hyphens."
            >
              {({ id: i, describedBy, invalid }) => (
                <input
                  id={i}
                  required
                  value={slug}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(e) => setSlug(e.target.value)}
                />
              )}
            </Field>
            <label className="check-label">
              <input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.target.checked)} /> Public (anyone
              with the link)
            </label>
            <div className="field" data-field="show_sla_targets">
              <label className="check-label">
                <input
                  type="checkbox"
                  name="show_sla_targets"
                  checked={showSla}
                  aria-describedby="show-sla-hint"
                  onChange={(e) => setShowSla(e.target.checked)}
                />{' '}
                Show SLA targets
              </label>
              <p id="show-sla-hint" className="hint">
                The current period&apos;s achievement of each SLA target whose monitors are all on this page.
              </p>
            </div>
            <fieldset className="field" data-field="monitor_ids">
              <legend>Monitors shown ({monitorIds.length})</legend>
              <label>
                Filter
                <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
              </label>
              <div className="pick-list">
                {shown.slice(0, 300).map((m) => (
                  <label key={m.id} className="check-label">
                    <input
                      type="checkbox"
                      checked={monitorIds.includes(m.id)}
                      onChange={(e) =>
                        setMonitorIds(e.target.checked ? [...monitorIds, m.id] : monitorIds.filter((x) => x !== m.id))
                      }
                    />{' '}
                    {m.name}
                  </label>
                ))}
              </div>
              {error?.issueFor('monitor_ids') && (
                <p className="field-error" role="alert">
                  {error.issueFor('monitor_ids')}
                </p>
              )}
            </fieldset>
            {writable && (
              <div className="actions">
                <button type="submit" className="primary" disabled={save.isPending}>
                  {id ? 'Save' : 'Create'}
                </button>
                {id && (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => {
                      if (window.confirm('Delete this status page?')) remove.mutate();
                    }}
                  >
                    Delete
                  </button>
                )}
              </div>
            )}
          </fieldset>
        </form>
        {existing.data && (
          <section aria-labelledby="preview">
            <h2 id="preview">Preview</h2>
            <p>
              <a href={`/status/${existing.data.slug}`} target="_blank" rel="noreferrer">
                Open /status/{existing.data.slug}
              </a>
            </p>
            <iframe
              key={previewKey}
              className="preview"
              title="Preview of the public status page"
              src={`/status/${existing.data.slug}?v=${previewKey}`}
            />
          </section>
        )}
      </div>
    </>
  );
}
