import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers read back

const DOCUMENT = {
  version: 1,
  destinations: [
    { key: 'ops', type: 'generic_webhook', name: 'Ops', config: { url: 'https://hooks.example.com/ops' } },
    { key: 'ci', type: 'generic_webhook', name: 'CI', config: { url: 'https://hooks.example.com/ci' } },
  ],
  monitors: [
    // A child listed before its parent: apply writes the parent first.
    {
      key: 'api',
      name: 'API',
      target: 'https://api.example.com/health',
      config: { depends_on: ['edge'], alert_destinations: ['ops'] },
    },
    {
      key: 'edge',
      name: 'Edge',
      target: 'https://edge.example.com',
      config: { timeout_ms: 5000, alert_destinations: ['ops', 'ci'] },
    },
    { key: 'db', type: 'tcp', name: 'DB', target: 'db.example.com:5432', tags: ['data'] },
  ],
  status_pages: [
    {
      key: 'public',
      slug: 'acme-status',
      title: 'Acme',
      monitors: ['edge', 'api'],
      groups: [{ name: 'Data', monitors: ['db'] }],
    },
  ],
  sla_targets: [{ key: 'api-sla', name: 'API 99.9', monitors: ['api'], target_percent: 99.9, period: 'monthly' }],
  maintenance_windows: [
    {
      key: 'patch-night',
      name: 'Patch night',
      monitors: ['db'],
      status_pages: ['public'],
      schedule: { type: 'recurring', rrule: 'FREQ=WEEKLY;BYDAY=SU', start_time: '02:00', duration_minutes: 60 },
      timezone: 'Europe/Berlin',
    },
  ],
  custom_reports: [
    {
      key: 'weekly-review',
      name: 'Weekly review',
      period: 'last_7_days',
      widgets: [
        { kind: 'availability', title: 'Uptime', monitors: ['api', 'edge'] },
        { kind: 'sla', title: 'SLA', options: { sla_targets: ['api-sla'] } },
      ],
    },
  ],
  scheduled_reports: [
    {
      key: 'monday-review',
      report_type: 'custom',
      custom_report: 'weekly-review',
      frequency: 'weekly',
      day_of_week: 1,
      time_of_day: '09:00',
      timezone: 'Europe/Berlin',
      destinations: ['ops'],
    },
  ],
};

function summary(res: { json(): Json }) {
  return res.json().summary as Json;
}

describe.each(testDialects())('configuration plan and apply (%s)', (dialect) => {
  let t: TestApp;
  let o: TestOrg;
  const post = (url: string, body: unknown) => call(t, o.apiKey, 'POST', url, { body });
  const monitorsByName = async () =>
    Object.fromEntries(
      ((await call(t, o.apiKey, 'GET', '/api/v1/monitors')).json().data as Json[]).map((m) => [m.name, m]),
    );

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    o = await t.createOrg();
  });
  afterAll(async () => t.close());

  it('plans every item as a create and changes nothing', async () => {
    const plan = await post('/api/v1/config/plan', { document: DOCUMENT });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(summary(plan)).toEqual({ create: 10, update: 0, delete: 0, unchanged: 0 });
    expect(plan.json().applied).toBe(false);
    const edge = (plan.json().entries as Json[]).find((e) => e.key === 'edge')!;
    expect(edge.changes).toContainEqual({ field: 'config.timeout_ms', before: null, after: 5000 });
    expect((await call(t, o.apiKey, 'GET', '/api/v1/monitors')).json().data).toEqual([]);
  });

  it('applies the document: references become ids, and applying again changes nothing', async () => {
    const applied = await post('/api/v1/config/apply', { document: DOCUMENT });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(summary(applied)).toEqual({ create: 10, update: 0, delete: 0, unchanged: 0 });
    const ids = Object.fromEntries((applied.json().entries as Json[]).map((e) => [`${e.kind}/${e.key}`, e.item_id]));
    const monitors = await monitorsByName();
    expect(monitors.API.config.depends_on).toEqual([ids['monitors/edge']]);
    expect(monitors.API.config.alert_destination_ids).toEqual([ids['destinations/ops']]);
    expect([...monitors.Edge.config.alert_destination_ids].sort()).toEqual(
      [ids['destinations/ops'], ids['destinations/ci']].sort(),
    );
    expect(monitors.DB.type).toBe('tcp');
    const page = (await call(t, o.apiKey, 'GET', `/api/v1/status-pages/${ids['status_pages/public']}`)).json();
    expect(page.monitor_ids).toEqual([ids['monitors/edge'], ids['monitors/api']]);
    expect(page.groups).toEqual([{ name: 'Data', monitor_ids: [ids['monitors/db']], collapsed: false }]);
    const window = (
      await call(t, o.apiKey, 'GET', `/api/v1/maintenance-windows/${ids['maintenance_windows/patch-night']}`)
    ).json();
    expect([window.monitor_ids, window.status_page_ids]).toEqual([[ids['monitors/db']], [ids['status_pages/public']]]);
    const report = (
      await call(t, o.apiKey, 'GET', `/api/v1/custom-reports/${ids['custom_reports/weekly-review']}`)
    ).json();
    expect(report.widgets[0].monitor_ids).toEqual([ids['monitors/api'], ids['monitors/edge']]);
    expect(report.widgets[1].options.sla_target_ids).toEqual([ids['sla_targets/api-sla']]);
    const schedule = (
      await call(t, o.apiKey, 'GET', `/api/v1/scheduled-reports/${ids['scheduled_reports/monday-review']}`)
    ).json();
    expect([schedule.custom_report_id, schedule.destination_ids]).toEqual([
      ids['custom_reports/weekly-review'],
      [ids['destinations/ops']],
    ]);
    const again = await post('/api/v1/config/apply', { document: DOCUMENT });
    expect(summary(again)).toEqual({ create: 0, update: 0, delete: 0, unchanged: 10 });
    expect(Object.keys(await monitorsByName())).toHaveLength(3);
  });

  it('records apply’s changes in the audit log as made by config', async () => {
    const log = await call(t, o.apiKey, 'GET', '/api/v1/audit-log?action=monitor.create');
    const entries = log.json().data as Json[];
    expect(entries).toHaveLength(3);
    for (const entry of entries) expect(entry.actor.type).toBe('config');
  });

  it('refuses changes to managed items through the API with 409 managed_by_config, naming the key', async () => {
    const { Edge } = await monitorsByName();
    for (const [method, url, body] of [
      ['PATCH', `/api/v1/monitors/${Edge.id}`, { name: 'renamed' }],
      ['POST', `/api/v1/monitors/${Edge.id}/pause`, undefined],
      ['DELETE', `/api/v1/monitors/${Edge.id}`, undefined],
    ] as const) {
      const res = await call(t, o.apiKey, method, url, body === undefined ? {} : { body });
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(errorCode(res)).toBe('managed_by_config');
      expect(res.json().error.message).toContain('monitors key "edge"');
    }
    const listed = await monitorsByName();
    expect(listed.Edge).toMatchObject({ name: 'Edge', managed_by: 'config', config_key: 'edge' });
    const single = (await call(t, o.apiKey, 'GET', `/api/v1/monitors/${Edge.id}`)).json();
    expect(single).toMatchObject({ managed_by: 'config', config_key: 'edge' });
    const hooks = (await call(t, o.apiKey, 'GET', '/api/v1/auth/organization/webhooks')).json().data as Json[];
    expect(hooks.map((h) => h.config_key).sort()).toEqual(['ci', 'ops']);
    // An item the document does not manage stays the API's.
    const own = await post('/api/v1/monitors', { target: 'https://own.example.com', name: 'Own' });
    expect(own.statusCode).toBe(201);
    expect(own.json()).not.toHaveProperty('managed_by');
    expect(
      (await call(t, o.apiKey, 'PATCH', `/api/v1/monitors/${own.json().id}`, { body: { name: 'Mine' } })).statusCode,
    ).toBe(200);
  });

  it('plans an update with field diffs and applies it; a field the document drops goes back to its default', async () => {
    const changed = structuredClone(DOCUMENT) as Json;
    changed.monitors[1].config = { alert_destinations: ['ops'] }; // timeout_ms dropped, ci dropped
    changed.monitors[2].name = 'Database';
    const plan = await post('/api/v1/config/plan', { document: changed });
    expect(summary(plan)).toEqual({ create: 0, update: 2, delete: 0, unchanged: 8 });
    const edge = (plan.json().entries as Json[]).find((e) => e.key === 'edge')!;
    expect(edge.changes).toEqual([
      { field: 'config.timeout_ms', before: 5000, after: null },
      { field: 'config.alert_destinations', before: ['ops', 'ci'], after: ['ops'] },
    ]);
    const applied = await post('/api/v1/config/apply', { document: changed });
    expect(summary(applied)).toEqual({ create: 0, update: 2, delete: 0, unchanged: 8 });
    const monitors = await monitorsByName();
    expect(monitors.Edge.config.timeout_ms).toBe(10_000);
    expect(monitors.Edge.config.alert_destination_ids).toHaveLength(1);
    expect(monitors.Database.type).toBe('tcp');
  });

  it('keeps managed items the document drops unless prune, and prune never deletes unmanaged ones', async () => {
    const smaller = structuredClone(DOCUMENT) as Json;
    smaller.monitors = smaller.monitors.filter((m: Json) => m.key !== 'db');
    smaller.maintenance_windows = [];
    smaller.status_pages[0].groups = [];
    const kept = await post('/api/v1/config/plan', { document: smaller });
    expect(kept.json().kept).toEqual([
      expect.objectContaining({ kind: 'monitors', key: 'db' }),
      expect.objectContaining({ kind: 'maintenance_windows', key: 'patch-night' }),
    ]);
    expect(summary(kept).delete).toBe(0);
    const pruned = await post('/api/v1/config/apply', { document: smaller, prune: true });
    expect(pruned.statusCode, pruned.body).toBe(200);
    expect((pruned.json().entries as Json[]).filter((e) => e.action === 'delete').map((e) => e.key)).toEqual([
      'db',
      'patch-night',
    ]);
    expect(Object.keys(await monitorsByName()).sort()).toEqual(['API', 'Edge', 'Mine']);
  });

  it('refuses a bad document with 422s naming the field, and applies nothing of it', async () => {
    const bad = structuredClone(DOCUMENT) as Json;
    bad.destinations.push({ key: 'new-hook', type: 'generic_webhook', config: { url: 'https://hooks.example.com/n' } });
    bad.monitors.push({ key: 'late', target: 'https://late.example.com', config: { depends_on: ['ghost'] } });
    const unknown = await post('/api/v1/config/apply', { document: bad });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.details).toContainEqual({
      field: 'document.monitors[3].config.depends_on[0]',
      issue: 'names monitors key "ghost", which the document does not list',
    });
    const shape = await post('/api/v1/config/plan', {
      document: { version: 1, monitors: [{ key: 'x', target: 'https://x.example.com', config: { timeout_ms: 1 } }] },
    });
    expect(shape.statusCode).toBe(422);
    expect(shape.json().error.details).toContainEqual({
      field: 'document.monitors[0].config.timeout_ms',
      issue: 'must be between 100 and 60000',
    });
    // Valid in shape, refused by a service after other kinds were written in the same transaction: none stays.
    bad.monitors[3] = { key: 'late', target: 'https://late.example.com', region_codes: ['nowhere-1'] };
    const late = await post('/api/v1/config/apply', { document: bad });
    expect(late.statusCode, late.body).toBe(422);
    expect((late.json().error.details as Json[]).map((d) => d.field)).toContain('document.monitors[3].region_codes[0]');
    const hooks = (await call(t, o.apiKey, 'GET', '/api/v1/auth/organization/webhooks')).json().data as Json[];
    expect(hooks.map((h) => h.name).sort()).toEqual(['CI', 'Ops']);
    const cycle = structuredClone(DOCUMENT) as Json;
    cycle.monitors[1].config.depends_on = ['api'];
    const cyclic = await post('/api/v1/config/plan', { document: cycle });
    expect(cyclic.statusCode).toBe(422);
    expect((cyclic.json().error.details as Json[])[0].issue).toBe('forms a cycle of dependencies');
  });

  it('serialises two applies at once: one creates, the other finds it all made', async () => {
    const other = await t.createOrg();
    const doc = { version: 1, monitors: [{ key: 'a', target: 'https://a.example.com', name: 'A' }] };
    const [first, second] = await Promise.all(
      [0, 1].map(() => call(t, other.apiKey, 'POST', '/api/v1/config/apply', { body: { document: doc } })),
    );
    expect([first!.statusCode, second!.statusCode]).toEqual([200, 200]);
    expect([summary(first!).create, summary(second!).create].sort()).toEqual([0, 1]);
    expect((await call(t, other.apiKey, 'GET', '/api/v1/monitors')).json().data).toHaveLength(1);
  });

  it('shows secrets as (secret) and keeps only a hash of them', async () => {
    const other = await t.createOrg();
    const doc = (token: string) => ({
      version: 1,
      destinations: [{ key: 'hook', type: 'generic_webhook', config: { url: `https://hooks.example.com/${token}` } }],
    });
    const body = (token: string) => ({ document: doc(token), secret_fields: ['destinations[0].config.url'] });
    const first = await call(t, other.apiKey, 'POST', '/api/v1/config/apply', { body: body('t0ken-one') });
    expect(first.body).not.toContain('t0ken-one');
    expect((first.json().entries as Json[])[0].changes).toContainEqual({
      field: 'config.url',
      before: null,
      after: '(secret)',
    });
    const rotated = await call(t, other.apiKey, 'POST', '/api/v1/config/plan', { body: body('t0ken-two') });
    expect((rotated.json().entries as Json[])[0].changes).toEqual([
      { field: 'config.url', before: '(secret)', after: '(secret, changed)' },
    ]);
    const same = await call(t, other.apiKey, 'POST', '/api/v1/config/plan', { body: body('t0ken-one') });
    expect(summary(same).unchanged).toBe(1);
  });

  it('is for owners and admins with config:write', async () => {
    const member = await t.createOrg({ role: 'member', scopes: ['monitors:read'] });
    const res = await call(t, member.apiKey, 'POST', '/api/v1/config/plan', { body: { document: { version: 1 } } });
    expect(res.statusCode).toBe(403);
  });
});
