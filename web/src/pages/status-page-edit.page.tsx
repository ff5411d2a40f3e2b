import { useEffect, useState } from 'react';
import { unwrap } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import { DeleteButton, EditForm, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave, useRemoveAndLeave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError } from '../ui/form';
import { MonitorPickList } from '../ui/monitor-pick-list';

/**
 * Editor (slug, title, monitors, visibility, SLA targets shown) with a preview of the public page as it is served;
 * the preview's address changes after each save so that the page's 30 s cache never shows the page before it.
 */
export default function StatusPageEditPage() {
  const { id, api, navigate, queryClient, writable, form } = useEditPage();
  const existing = useExisting(['status-page', id], id, async (id) =>
    unwrap(await api.client.GET('/api/v1/status-pages/{id}', { params: { path: { id } } })),
  );
  const monitors = useAllMonitors({});
  const [slug, setSlug] = useState('');
  const [title, setTitle] = useState('');
  const [isPublic, setPublic] = useState(true);
  const [showSla, setShowSla] = useState(false);
  const [embeddable, setEmbeddable] = useState(false);
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [previewKey, setPreviewKey] = useState(0);
  useEffect(() => {
    if (existing.data) {
      setSlug(existing.data.slug);
      setTitle(existing.data.title);
      setPublic(existing.data.public);
      setShowSla(existing.data.show_sla_targets);
      setEmbeddable(existing.data.allow_embedding);
      setMonitorIds(existing.data.monitor_ids);
    }
  }, [existing.data]);
  const { save, error } = useFormSave(form, {
    mutationFn: async () => {
      const body = {
        slug,
        title,
        public: isPublic,
        show_sla_targets: showSla,
        allow_embedding: embeddable,
        monitor_ids: monitorIds,
      };
      const header = idempotencyHeader();
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
  const remove = useRemoveAndLeave(
    async () => unwrap(await api.client.DELETE('/api/v1/status-pages/{id}', { params: { path: { id: id! } } })),
    { queryKey: ['status-pages'], path: '/status-pages' },
  );
  return (
    <>
      <h1>{id ? `Status page: ${existing.data?.title ?? ''}` : 'New status page'}</h1>
      <div className="two-columns">
        <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable}>
          <FormError
            error={save.error}
            fields={['slug', 'title', 'monitor_ids', 'public', 'show_sla_targets', 'allow_embedding']}
          />
          <Field label="Title" name="title" error={error} required>
            {({ control }) => <input {...control} required value={title} onChange={(e) => setTitle(e.target.value)} />}
          </Field>
          <Field
            label="Slug"
            name="slug"
            error={error}
            required
            hint="Served at /status/{slug}; lower-case letters, digits and hyphens."
          >
            {({ control }) => <input {...control} required value={slug} onChange={(e) => setSlug(e.target.value)} />}
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
          <div className="field" data-field="allow_embedding">
            <label className="check-label">
              <input
                type="checkbox"
                name="allow_embedding"
                checked={embeddable}
                aria-describedby="allow-embedding-hint"
                onChange={(e) => setEmbeddable(e.target.checked)}
              />{' '}
              Allow other sites to embed this page
            </label>
            <p id="allow-embedding-hint" className="hint">
              Off, only this app may show the page in a frame (the preview).
            </p>
          </div>
          <fieldset className="field" data-field="monitor_ids">
            <legend>Monitors shown ({monitorIds.length})</legend>
            <MonitorPickList
              monitors={monitors.monitors}
              chosen={monitorIds}
              onChange={setMonitorIds}
              filterLabel="Filter"
              filter={filter}
              onFilter={setFilter}
            />
            <FieldIssue issue={error?.issueFor('monitor_ids')} />
          </fieldset>
          {writable && (
            <SaveBar pending={save.isPending} label={id ? 'Save' : 'Create'}>
              {id && <DeleteButton question="Delete this status page?" onConfirmed={() => remove.mutate()} />}
            </SaveBar>
          )}
        </EditForm>
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
