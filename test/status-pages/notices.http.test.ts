/**
 * Notices on status pages (DECISIONS §18) through the API: CRUD with the pages' scopes, the update timeline, drafts,
 * post-mortems, 422s that name the field and save nothing, the audit entries, and the listeners told of each
 * publication and each update of a published notice exactly once, inside the transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoticesService, type NoticePublication } from '../../src/modules/status-pages/index.ts';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { contextFor } from '../support/context.ts';
import { testDialects } from '../support/databases.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

for (const dialect of testDialects()) {
  describe(`${dialect}: status page notices`, () => {
    let t: TestApp;
    let org: TestOrg;
    let clock: ManualClock;
    let n = 0;

    beforeAll(async () => {
      clock = new ManualClock('2026-05-10T10:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
    });
    afterAll(async () => t.close());

    async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = org.apiKey) {
      clock.advance(1000);
      const res = await t.tocsin.app.inject({
        method,
        url,
        headers: bearer(key),
        ...(body !== undefined && { payload: body as Json }),
      });
      return { status: res.statusCode, body: res.body === '' ? undefined : (res.json() as Json) };
    }
    async function monitor(name: string, key = org.apiKey, environment = 'production'): Promise<string> {
      const res = await call('POST', '/api/v1/monitors', { name, target: 'https://example.com', environment }, key);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body!.id as string;
    }
    async function page(monitorIds: string[], key = org.apiKey): Promise<Json> {
      const res = await call(
        'POST',
        '/api/v1/status-pages',
        { slug: `notices-${dialect}-${++n}`, title: 'Acme', monitor_ids: monitorIds },
        key,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body!;
    }
    const auditActions = async (targetId: string) =>
      (await t.tocsin.services.audit.list(org.organizationId, { targetId }, { limit: 200 })).data.map((e) => e.action);

    it('creates a draft, adds updates, publishes, resolves, writes a postmortem, lists and deletes', async () => {
      const api = await monitor('API');
      const p = await page([api]);
      const base = `/api/v1/status-pages/${p.id}/notices`;
      const created = await call('POST', base, {
        kind: 'incident',
        title: '  Elevated errors  ',
        impact: 'major',
        affected_monitor_ids: [api],
        body: 'We are looking into **errors**.',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^ntc_[0-9a-z]{26}$/),
        status_page_id: p.id,
        kind: 'incident',
        title: 'Elevated errors',
        impact: 'major',
        status: 'investigating',
        affected_monitor_ids: [api],
        incident_id: null,
        published: false,
        published_at: null,
        resolved_at: null,
        postmortem: null,
        postmortem_published_at: null,
        automatic: false,
        updates: [
          {
            id: expect.stringMatching(/^ntu_/),
            status: 'investigating',
            body: 'We are looking into **errors**.',
            created_at: expect.any(String),
          },
        ],
      });
      const id = created.body!.id as string;
      const update = await call('POST', `${base}/${id}/updates`, { status: 'identified', body: 'A bad deploy.' });
      expect(update.status, JSON.stringify(update.body)).toBe(201);
      expect(update.body).toMatchObject({ status: 'identified', updates: [{}, { status: 'identified' }] });
      const published = await call('PATCH', `${base}/${id}`, { published: true });
      expect(published.body).toMatchObject({ published: true, published_at: expect.any(String) });
      // An update without a status keeps the notice's.
      const kept = await call('POST', `${base}/${id}/updates`, { body: 'Rolling back.' });
      expect(kept.body).toMatchObject({ status: 'identified' });
      const resolved = await call('POST', `${base}/${id}/updates`, { status: 'resolved', body: 'Fixed.' });
      expect(resolved.body).toMatchObject({ status: 'resolved', resolved_at: expect.any(String) });
      expect(resolved.body!.updates.map((u: Json) => u.body)).toEqual([
        'We are looking into **errors**.',
        'A bad deploy.',
        'Rolling back.',
        'Fixed.',
      ]);
      const pm = await call('PATCH', `${base}/${id}`, { postmortem: '## What happened\nA bad deploy.' });
      expect(pm.body).toMatchObject({ postmortem: '## What happened\nA bad deploy.', postmortem_published_at: null });
      const pmPublished = await call('PATCH', `${base}/${id}`, { postmortem_published: true });
      expect(pmPublished.body!.postmortem_published_at).toEqual(expect.any(String));
      expect((await call('GET', `${base}/${id}`)).body).toEqual(pmPublished.body);

      const info = await call('POST', base, { kind: 'info', title: 'New region', published: true });
      expect(info.body).toMatchObject({ kind: 'info', impact: 'none', status: null, published: true });
      const list = await call('GET', `${base}?limit=1`);
      expect(list.body!.data.map((x: Json) => x.id)).toEqual([info.body!.id]);
      const next = await call('GET', `${base}?limit=1&cursor=${list.body!.next_cursor}`);
      expect(next.body).toMatchObject({ data: [{ id }], next_cursor: null });

      expect(await auditActions(id)).toEqual(
        expect.arrayContaining([
          'status_page_notice.create',
          'status_page_notice.add_update',
          'status_page_notice.update',
        ]),
      );
      expect((await call('DELETE', `${base}/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/${id}`)).status).toBe(404);
      expect(await auditActions(id)).toContain('status_page_notice.delete');
    });

    it('answers 422 naming each field and saves nothing; the scopes are the pages’; 404 across organizations', async () => {
      const mine = await monitor('Mine');
      const p = await page([mine]);
      const base = `/api/v1/status-pages/${p.id}/notices`;
      const other = await t.createOrg();
      const foreign = await monitor('Foreign', other.apiKey);
      const hidden = await monitor('Staging', org.apiKey, 'staging');
      const theirIncident = await call('POST', '/api/v1/incidents', { title: 'Theirs' }, other.apiKey);
      const bad = await call('POST', base, {
        kind: 'outage',
        title: '',
        impact: 'huge',
        affected_monitor_ids: [mine, foreign, mine],
        incident_id: theirIncident.body!.id,
        extra: true,
      });
      expect(bad.status).toBe(422);
      expect(bad.body!.error.details.map((d: Json) => d.field).sort()).toEqual(
        [
          'kind',
          'title',
          'impact',
          'affected_monitor_ids[1]',
          'affected_monitor_ids[2]',
          'incident_id',
          'extra',
        ].sort(),
      );
      const unknownMonitor = await call('POST', base, {
        kind: 'incident',
        title: 'x',
        affected_monitor_ids: [foreign],
      });
      expect(unknownMonitor.body!.error.details).toEqual([
        { field: 'affected_monitor_ids[0]', issue: expect.stringContaining('does not exist') },
      ]);
      // A key limited to production cannot name a staging monitor.
      const prodKey = await t.tocsin.services.auth.issueKey({
        organizationId: org.organizationId,
        name: 'prod',
        scopes: ['status_pages:read', 'status_pages:write'],
        environments: ['production'],
        userId: org.userId,
        createdBy: org.userId,
      });
      const staging = await call(
        'POST',
        base,
        { kind: 'incident', title: 'x', affected_monitor_ids: [hidden] },
        prodKey.key,
      );
      expect(staging.status).toBe(422);
      expect(staging.body!.error.details[0].field).toBe('affected_monitor_ids[0]');
      const wrongStatus = await call('POST', base, { kind: 'maintenance', title: 'x', status: 'identified' });
      expect(wrongStatus.body!.error.details).toEqual([{ field: 'status', issue: expect.any(String) }]);
      const nullIncident = await call('POST', base, { kind: 'incident', title: 'x', status: null });
      expect(nullIncident.body!.error.details).toEqual([{ field: 'status', issue: expect.any(String) }]);
      const noPm = await call('POST', base, { kind: 'incident', title: 'x', postmortem_published: true });
      expect(noPm.body!.error.details).toEqual([{ field: 'postmortem_published', issue: expect.any(String) }]);
      expect((await call('GET', base)).body!.data).toEqual([]);

      const ok = await call('POST', base, { kind: 'incident', title: 'ok' });
      const nid = ok.body!.id as string;
      const emptyUpdate = await call('POST', `${base}/${nid}/updates`, { body: '   ' });
      expect(emptyUpdate.body!.error.details).toEqual([{ field: 'body', issue: expect.any(String) }]);
      const badUpdate = await call('POST', `${base}/${nid}/updates`, { body: 'x', status: 'done', extra: 1 });
      expect(badUpdate.body!.error.details.map((d: Json) => d.field).sort()).toEqual(['extra', 'status']);
      const toInfo = await call('PATCH', `${base}/${nid}`, { kind: 'info' });
      expect(toInfo.body!.error.details).toEqual([{ field: 'kind', issue: expect.any(String) }]);
      expect((await call('GET', `${base}/${nid}`)).body).toMatchObject({ kind: 'incident', updates: [] });

      const readOnly = await t.createOrg({ scopes: ['status_pages:read'] });
      const denied = await call('POST', base, { kind: 'info', title: 'x' }, readOnly.apiKey);
      expect(denied.status).toBe(403);
      expect(denied.body!.error.message).toContain('status_pages:write');
      const writeOnly = await t.createOrg({ scopes: ['status_pages:write'] });
      expect((await call('GET', base, undefined, writeOnly.apiKey)).status).toBe(403);
      // Another organization's page and notice are not found.
      for (const [method, url, body] of [
        ['GET', base, undefined],
        ['GET', `${base}/${nid}`, undefined],
        ['POST', base, { kind: 'info', title: 'x' }],
        ['PATCH', `${base}/${nid}`, { title: 'x' }],
        ['POST', `${base}/${nid}/updates`, { body: 'x' }],
        ['DELETE', `${base}/${nid}`, undefined],
      ] as const) {
        expect((await call(method, url, body, other.apiKey)).status, `${method} ${url}`).toBe(404);
      }
      // A notice of another page of the same organization is not found under this one.
      const p2 = await page([mine]);
      expect((await call('GET', `/api/v1/status-pages/${p2.id}/notices/${nid}`)).status).toBe(404);
    });

    it('tells the listeners once per publication and per update of a published notice, never of a draft', async () => {
      const told: NoticePublication[] = [];
      const { services } = t.tocsin;
      const notices = new NoticesService({
        database: t.tocsin.database,
        clock,
        pages: services.statusPages,
        monitors: services.monitors,
        incidents: services.incidents,
        listeners: [
          async (tx, publication) => {
            // Inside the transaction: the notice as written so far is visible through `tx`.
            expect(tx.inTransaction).toBe(true);
            told.push(publication);
          },
        ],
      });
      const actor = (await services.auth.authenticate(org.apiKey))!;
      const ctx = contextFor(t, actor);
      const p = await page([]);
      const draft = await notices.create(ctx, p.id, { kind: 'incident', title: 'Slow', body: 'Looking.' });
      clock.advance(1000);
      await notices.addUpdate(ctx, p.id, draft.id, { body: 'Still a draft.', status: 'identified' });
      await notices.update(ctx, p.id, draft.id, { impact: 'critical' });
      expect(told).toEqual([]);
      clock.advance(1000);
      await notices.update(ctx, p.id, draft.id, { published: true });
      expect(told).toEqual([
        {
          organizationId: org.organizationId,
          statusPageId: p.id,
          noticeId: draft.id,
          updateId: null,
          kind: 'incident',
          title: 'Slow',
          impact: 'critical',
          status: 'identified',
          bodyMarkdown: 'Still a draft.',
          publishedAt: new Date(clock.now()),
        },
      ]);
      // Publishing again (already published) and other edits tell nobody.
      await notices.update(ctx, p.id, draft.id, { published: true, title: 'Slow pages' });
      expect(told).toHaveLength(1);
      const withUpdate = await notices.addUpdate(ctx, p.id, draft.id, { body: 'Fixed.', status: 'resolved' });
      expect(told).toHaveLength(2);
      expect(told[1]).toMatchObject({
        noticeId: draft.id,
        updateId: withUpdate.updates[withUpdate.updates.length - 1]!.id,
        status: 'resolved',
        bodyMarkdown: 'Fixed.',
        title: 'Slow pages',
      });
      // Created published: one call, the publication, with the first update's text.
      const direct = await notices.create(ctx, p.id, {
        kind: 'maintenance',
        title: 'DB',
        body: 'Tonight.',
        published: true,
      });
      expect(told).toHaveLength(3);
      expect(told[2]).toMatchObject({ noticeId: direct.id, updateId: null, status: null, bodyMarkdown: 'Tonight.' });
      // Unpublished then published again: a new publication.
      await notices.update(ctx, p.id, direct.id, { published: false });
      clock.advance(1000);
      await notices.addUpdate(ctx, p.id, direct.id, { body: 'Hidden.' });
      expect(told).toHaveLength(3);
      await notices.update(ctx, p.id, direct.id, { published: true });
      expect(told).toHaveLength(4);
      expect(told[3]).toMatchObject({ noticeId: direct.id, updateId: null, bodyMarkdown: 'Hidden.' });
    });

    it('a listener that fails rolls the publication back', async () => {
      const { services } = t.tocsin;
      const notices = new NoticesService({
        database: t.tocsin.database,
        clock,
        pages: services.statusPages,
        monitors: services.monitors,
        incidents: services.incidents,
        listeners: [
          async () => {
            throw new Error('fan-out refused');
          },
        ],
      });
      const ctx = contextFor(t, (await services.auth.authenticate(org.apiKey))!);
      const p = await page([]);
      const draft = await notices.create(ctx, p.id, { kind: 'info', title: 'Soon' });
      await expect(notices.update(ctx, p.id, draft.id, { published: true })).rejects.toThrow('fan-out refused');
      expect((await services.notices.get(ctx, p.id, draft.id)).published).toBe(false);
      await expect(notices.create(ctx, p.id, { kind: 'info', title: 'Now', published: true })).rejects.toThrow(
        'fan-out refused',
      );
      expect((await services.notices.list(ctx, p.id, { limit: 10 })).data.map((x) => x.title)).toEqual(['Soon']);
    });

    it('auto_notices is off by default, can be set, and reads back', async () => {
      const p = await page([]);
      expect(p.auto_notices).toBe(false);
      const on = await call('PATCH', `/api/v1/status-pages/${p.id}`, { auto_notices: true });
      expect(on.body).toMatchObject({ auto_notices: true });
      expect(
        (await call('PATCH', `/api/v1/status-pages/${p.id}`, { auto_notices: 'yes' })).body!.error.details,
      ).toEqual([{ field: 'auto_notices', issue: expect.any(String) }]);
    });
  });
}
