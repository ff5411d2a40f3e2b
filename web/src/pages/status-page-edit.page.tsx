import { isManaged, ManagedNotice } from '../ui/managed-notice';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import { BadgeSnippets } from '../ui/badge-snippets';
import { DeleteButton, EditForm, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave, useRemoveAndLeave } from '../ui/edit-form.hooks';
import { Field, FormError } from '../ui/form';
import { ZoneSelect } from '../ui/zone-select';
import { groupDrafts, LayoutEditor, type GroupDraft } from './status-page-edit.layout';
import { StatusPageSubscribers } from './status-page-subscribers';

/**
 * Editor (slug, title, layout of groups and monitors, visibility, SLA targets shown, custom domain, password access,
 * time zone) with a preview of the public page as it is served;
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
  const [autoNotices, setAutoNotices] = useState(false);
  const [subscriptions, setSubscriptions] = useState(false);
  const [monitorIds, setMonitorIds] = useState<string[]>([]);
  const [groups, setGroups] = useState<GroupDraft[]>([]);
  const [domain, setDomain] = useState('');
  const [access, setAccess] = useState<'public' | 'password'>('public');
  // Write-only: never filled from the server; sent only when typed.
  const [password, setPassword] = useState('');
  const [timezone, setTimezone] = useState('UTC');
  const [previewKey, setPreviewKey] = useState(0);
  useEffect(() => {
    if (existing.data) {
      setSlug(existing.data.slug);
      setTitle(existing.data.title);
      setPublic(existing.data.public);
      setShowSla(existing.data.show_sla_targets);
      setEmbeddable(existing.data.allow_embedding);
      setAutoNotices(existing.data.auto_notices);
      setSubscriptions(existing.data.subscriptions_enabled);
      setMonitorIds(existing.data.monitor_ids);
      setGroups(groupDrafts(existing.data.groups));
      setDomain(existing.data.custom_domain ?? '');
      setAccess(existing.data.access);
      setTimezone(existing.data.timezone);
      setPassword('');
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
        auto_notices: autoNotices,
        subscriptions_enabled: subscriptions,
        monitor_ids: monitorIds,
        groups: groups.map((g) => ({ name: g.name, monitor_ids: g.monitor_ids, collapsed: g.collapsed })),
        custom_domain: domain.trim() === '' ? null : domain.trim(),
        access,
        timezone,
        ...(password !== '' && { password }),
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
      setPassword('');
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
      <ManagedNotice record={existing.data} what="status page" />
      {id && (
        <p>
          <Link to={`/status-pages/${id}/notices`}>Notices: incidents, maintenance and updates for readers</Link>
        </p>
      )}
      <div className="two-columns">
        <EditForm form={form} onSubmit={() => save.mutate()} locked={!writable || isManaged(existing.data)}>
          <FormError
            error={save.error}
            fields={[
              'slug',
              'title',
              'monitor_ids',
              'groups',
              'public',
              'show_sla_targets',
              'allow_embedding',
              'auto_notices',
              'custom_domain',
              'access',
              'password',
              'timezone',
              'subscriptions_enabled',
            ]}
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
          <div className="field" data-field="auto_notices">
            <label className="check-label">
              <input
                type="checkbox"
                name="auto_notices"
                checked={autoNotices}
                aria-describedby="auto-notices-hint"
                onChange={(e) => setAutoNotices(e.target.checked)}
              />{' '}
              Draft a notice when a monitor incident opens
            </label>
            <p id="auto-notices-hint" className="hint">
              A draft naming the monitor, since when and the regions that saw it, for you to publish.
            </p>
          </div>
          <LayoutEditor
            monitors={monitors.monitors}
            groups={groups}
            onGroups={setGroups}
            ungrouped={monitorIds}
            onUngrouped={setMonitorIds}
            error={error}
          />
          <Field
            label="Custom domain"
            name="custom_domain"
            error={error}
            hint="Also served at the root of this host name (e.g. status.example.com); your proxy provides TLS. Empty: none."
          >
            {({ control }) => (
              <input
                {...control}
                value={domain}
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="status.example.com"
                onChange={(e) => setDomain(e.target.value)}
              />
            )}
          </Field>
          <Field label="Access" name="access" error={error}>
            {({ control }) => (
              <select
                {...control}
                value={access}
                onChange={(e) => setAccess(e.target.value === 'password' ? 'password' : 'public')}
              >
                <option value="public">Anyone with the link</option>
                <option value="password">Password required</option>
              </select>
            )}
          </Field>
          {access === 'password' && (
            <Field
              label={existing.data?.password_set ? 'New password' : 'Password'}
              name="password"
              error={error}
              required={!existing.data?.password_set}
              hint={
                existing.data?.password_set
                  ? 'A password is set. Leave empty to keep it; a new one ends every open visitor session.'
                  : '10 to 200 characters. Visitors enter it once per browser (7 days).'
              }
            >
              {({ control }) => (
                <input
                  {...control}
                  type="password"
                  autoComplete="new-password"
                  minLength={10}
                  maxLength={200}
                  required={!existing.data?.password_set}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              )}
            </Field>
          )}
          <Field
            label="Time zone"
            name="timezone"
            error={error}
            hint="Times on the public page are shown in this zone."
          >
            {({ control }) => <ZoneSelect control={control} value={timezone} onChange={setTimezone} />}
          </Field>
          <div className="field" data-field="subscriptions_enabled">
            <label className="check-label">
              <input
                type="checkbox"
                name="subscriptions_enabled"
                checked={subscriptions}
                aria-describedby="subscriptions-hint"
                onChange={(e) => setSubscriptions(e.target.checked)}
              />{' '}
              Let visitors subscribe by email
            </label>
            <p id="subscriptions-hint" className="hint">
              The public page shows a subscribe form; subscribers confirm by mail and get published notices and
              announced maintenance.
            </p>
          </div>
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
            <h2 id="page-badge">Page badge</h2>
            {existing.data.public ? (
              <BadgeSnippets
                version={previewKey}
                badges={[
                  {
                    name: 'Page status',
                    url: `${existing.data.url}/badge.svg`,
                    alt: `${existing.data.title} status`,
                    link: existing.data.url,
                  },
                ]}
              />
            ) : (
              <p className="muted">A page that is not public has no badge.</p>
            )}
            <p className="muted">
              For Statuspage widgets and integrations: <code>{existing.data.url}/api/v2/summary.json</code>.
            </p>
          </section>
        )}
      </div>
      {existing.data && <StatusPageSubscribers pageId={existing.data.id} writable={writable} />}
    </>
  );
}
