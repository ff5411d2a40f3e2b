/**
 * Custom reports through the real app on SQLite and PostgreSQL: CRUD, visibility for every kind of caller (owner,
 * other member, shared member, admin, service account, another organization), bad input (422 naming the field,
 * nothing changed), render as JSON with each section equal to the single report, idempotent POST, scopes and plan.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/modules/auth/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { at, clientOf } from './reports.helpers.ts';
import { parseCsv } from './csv.parse.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions
type Client = ReturnType<typeof clientOf>;

/** The text of a PDF, page by page (poppler's pdftotext). */
function pdfPages(pdf: Buffer): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'tocsin-crp-')), 'report.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

const FROM = '2026-05-01T00:00:00.000Z';
const TO = '2026-05-02T00:00:00.000Z';

describe.each(testDialects())('custom reports API on %s', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');
  let org: TestOrg;
  let owner: Client;
  let member: Client;
  let other: Client;
  let admin: Client;
  let robot: Client;
  let stranger: Client;
  let memberId: string;
  let otherId: string;
  let strangerId: string;
  let shop: string;
  let api: string;
  let staging: string;

  /** A key of a new member of the organization (its user id and a client). */
  async function newMember(role: 'admin' | 'member' | 'viewer', o: TestOrg = org) {
    const { orgs, auth } = t.tocsin.services;
    const user = await orgs.ensureUser({ email: `${role}-${Math.random().toString(36).slice(2)}@example.com` });
    await orgs.addMember(o.organizationId, user.id, role);
    const key = await auth.issueKey({
      organizationId: o.organizationId,
      name: role,
      scopes: [...SCOPES],
      environments: ['production', 'staging', 'development'],
      userId: user.id,
      createdBy: user.id,
    });
    return { userId: user.id, client: clientOf(t, { ...o, userId: user.id, apiKey: key.key, keyId: key.id }) };
  }

  async function keyOf(options: { scopes?: Scope[]; environments?: string[]; userId?: string }): Promise<Client> {
    const key = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'narrow',
      scopes: options.scopes ?? [...SCOPES],
      environments: options.environments ?? ['production', 'staging', 'development'],
      userId: options.userId ?? org.userId,
      createdBy: org.userId,
    });
    return clientOf(t, { ...org, apiKey: key.key, keyId: key.id });
  }

  beforeAll(async () => {
    t = await createTestApp({
      dialect,
      clock,
      configFile: { plans: { enterprise: { interval_floor_seconds: 1 }, team: { reports: false } } },
    });
    org = await t.createOrg();
    owner = clientOf(t, org);
    ({ userId: memberId, client: member } = await newMember('member'));
    ({ userId: otherId, client: other } = await newMember('member'));
    ({ client: admin } = await newMember('admin'));
    const account = await t.tocsin.services.apiAccess.serviceAccounts.create(
      org.organizationId,
      { name: 'CI', role: 'admin' },
      null,
    );
    const robotKey = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'ci',
      scopes: [...SCOPES],
      environments: ['production', 'staging', 'development'],
      serviceAccountId: account.id,
    });
    robot = clientOf(t, { ...org, apiKey: robotKey.key, keyId: robotKey.id });
    const strangerOrg = await t.createOrg();
    stranger = clientOf(t, strangerOrg);
    strangerId = strangerOrg.userId;

    clock.set(FROM);
    shop = await owner.createMonitor({ name: 'Shop', tags: ['shop'] });
    api = await owner.createMonitor({ name: 'API', tags: ['api'] });
    staging = await owner.createMonitor({ name: 'Staging API', tags: ['api'], environment: 'staging' });
    for (const id of [shop, api, staging]) await owner.check(id, 'up', at('2026-05-01T00:00:00Z'), 'local', 100);
    await owner.check(shop, 'down', at('2026-05-01T02:00:00Z'));
    await owner.check(shop, 'down', at('2026-05-01T02:01:00Z'));
    await owner.check(shop, 'up', at('2026-05-01T02:10:00Z'), 'local', 150);
    await owner.check(api, 'up', at('2026-05-01T03:00:00Z'), 'local', 300);
    clock.set('2026-05-02T06:00:00Z');
  });
  afterAll(async () => {
    await t.close();
  });

  const body = (extra: Json = {}): Json => ({
    name: 'Weekly customer report',
    period: { from: FROM, to: TO },
    widgets: [{ kind: 'availability', title: 'Uptime' }],
    ...extra,
  });

  async function create(c: Client, extra: Json = {}): Promise<Json> {
    const r = await c.call('POST', '/api/v1/custom-reports', body(extra));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  }

  async function listIds(c: Client): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await c.call('GET', `/api/v1/custom-reports?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      ids.push(...r.body.data.map((x: Json) => x.id as string));
      cursor = r.body.next_cursor;
    } while (cursor);
    return ids;
  }

  it('create, read, list, update and delete', async () => {
    const created = await create(owner, {
      timezone: 'Europe/Berlin',
      widgets: [
        { kind: 'availability', title: '  Shop uptime ', monitor_ids: [shop] },
        { kind: 'performance', title: 'API latency', tags: ['api'] },
      ],
    });
    expect(created.id).toMatch(/^crp_[0-9a-z]{26}$/);
    expect(created).toMatchObject({
      name: 'Weekly customer report',
      period: { from: FROM, to: TO },
      timezone: 'Europe/Berlin',
      widgets: [
        { kind: 'availability', title: 'Shop uptime', monitor_ids: [shop] },
        { kind: 'performance', title: 'API latency', tags: ['api'] },
      ],
      visibility: 'private',
      shared_with_user_ids: [],
      owner_id: org.userId,
    });
    expect((await owner.call('GET', `/api/v1/custom-reports/${created.id}`)).body).toEqual(created);
    expect(await listIds(owner)).toContain(created.id);

    clock.advance(1000);
    const patched = await owner.call('PATCH', `/api/v1/custom-reports/${created.id}`, {
      name: 'Monthly',
      period: 'previous_month',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Monthly', period: 'previous_month', timezone: 'Europe/Berlin' });
    expect(patched.body.widgets).toEqual(created.widgets);
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect(patched.body.created_at).toBe(created.created_at);

    expect((await owner.call('DELETE', `/api/v1/custom-reports/${created.id}`)).status).toBe(204);
    expect((await owner.call('GET', `/api/v1/custom-reports/${created.id}`)).status).toBe(404);
    expect((await owner.call('DELETE', `/api/v1/custom-reports/${created.id}`)).status).toBe(404);
  });

  it('visibility: private to its owner, organization to every member, shared to the owner and the listed users', async () => {
    const priv = (await create(owner, { name: 'private' })).id as string;
    const orgWide = (await create(owner, { name: 'organization', visibility: 'organization' })).id as string;
    const shared = (await create(owner, { name: 'shared', visibility: 'shared', shared_with_user_ids: [memberId] }))
      .id as string;
    const mine = [priv, orgWide, shared];
    const sees = async (c: Client) => (await listIds(c)).filter((id) => mine.includes(id)).sort();

    expect(await sees(owner)).toEqual([...mine].sort());
    expect(await sees(member)).toEqual([orgWide, shared].sort());
    expect(await sees(other)).toEqual([orgWide]);
    expect(await sees(admin)).toEqual([orgWide]);
    expect(await sees(robot)).toEqual([orgWide]);
    expect(await sees(stranger)).toEqual([]);

    // Who may not see a report gets 404 on every verb (its existence is not revealed).
    const hiddenFrom: Array<[Client, string]> = [
      [member, priv],
      [other, priv],
      [other, shared],
      [admin, priv],
      [admin, shared],
      [robot, priv],
      [robot, shared],
      [stranger, orgWide],
    ];
    for (const [c, id] of hiddenFrom) {
      expect((await c.call('GET', `/api/v1/custom-reports/${id}`)).status).toBe(404);
      expect((await c.call('GET', `/api/v1/custom-reports/${id}/render`)).status).toBe(404);
      expect((await c.call('PATCH', `/api/v1/custom-reports/${id}`, { name: 'x' })).status).toBe(404);
      expect((await c.call('DELETE', `/api/v1/custom-reports/${id}`)).status).toBe(404);
    }
    // Those who see one but neither own it nor administer the organization get 403 on changes.
    for (const [c, id] of [
      [member, shared],
      [member, orgWide],
      [other, orgWide],
    ] as Array<[Client, string]>) {
      expect((await c.call('GET', `/api/v1/custom-reports/${id}`)).status).toBe(200);
      expect((await c.call('GET', `/api/v1/custom-reports/${id}/render`)).status).toBe(200);
      const patch = await c.call('PATCH', `/api/v1/custom-reports/${id}`, { name: 'taken over' });
      expect(patch.status).toBe(403);
      expect(patch.body.error.code).toBe('forbidden');
      expect((await c.call('DELETE', `/api/v1/custom-reports/${id}`)).status).toBe(403);
    }
    // An admin (person or service account) may change what it sees; the owner stays the owner.
    const byAdmin = await admin.call('PATCH', `/api/v1/custom-reports/${orgWide}`, { name: 'renamed by admin' });
    expect(byAdmin.body).toMatchObject({ name: 'renamed by admin', owner_id: org.userId });
    const byRobot = await robot.call('PATCH', `/api/v1/custom-reports/${orgWide}`, { name: 'renamed by CI' });
    expect(byRobot.body).toMatchObject({ name: 'renamed by CI', owner_id: org.userId });
    // Nothing was changed by the refused calls.
    expect((await owner.call('GET', `/api/v1/custom-reports/${shared}`)).body.name).toBe('shared');
    expect((await owner.call('GET', `/api/v1/custom-reports/${priv}`)).body.name).toBe('private');

    // Sharing ends when the owner makes it organization-wide, or moves it to someone else.
    const moved = await owner.call('PATCH', `/api/v1/custom-reports/${shared}`, { shared_with_user_ids: [otherId] });
    expect(moved.body.shared_with_user_ids).toEqual([otherId]);
    expect((await member.call('GET', `/api/v1/custom-reports/${shared}`)).status).toBe(404);
    expect((await other.call('GET', `/api/v1/custom-reports/${shared}`)).status).toBe(200);
    const privateAgain = await owner.call('PATCH', `/api/v1/custom-reports/${shared}`, { visibility: 'private' });
    expect(privateAgain.body).toMatchObject({ visibility: 'private', shared_with_user_ids: [] });
    expect((await other.call('GET', `/api/v1/custom-reports/${shared}`)).status).toBe(404);
  });

  it("a service account's key makes organization reports only, and is their owner", async () => {
    const before = await listIds(owner);
    for (const visibility of ['private', 'shared']) {
      const r = await robot.call('POST', '/api/v1/custom-reports', body({ visibility }));
      expect(r.status).toBe(422);
      expect(r.body.error.details.map((d: Json) => d.field)).toEqual(['visibility']);
    }
    expect(await listIds(owner)).toEqual(before);
    const made = await create(robot);
    expect(made.visibility).toBe('organization');
    expect(made.owner_id).toMatch(/^sac_/);
    expect((await member.call('GET', `/api/v1/custom-reports/${made.id}`)).status).toBe(200);
    const toPrivate = await robot.call('PATCH', `/api/v1/custom-reports/${made.id}`, { visibility: 'private' });
    expect(toPrivate.status).toBe(422);
    expect(toPrivate.body.error.details[0].field).toBe('visibility');
    // Nor may an admin hide it from its owning service account.
    const hidden = await admin.call('PATCH', `/api/v1/custom-reports/${made.id}`, { visibility: 'private' });
    expect(hidden.status).toBe(422);
    expect(hidden.body.error.details[0].field).toBe('visibility');
    expect((await robot.call('GET', `/api/v1/custom-reports/${made.id}`)).body.visibility).toBe('organization');
    // A person's report made private by its owner disappears for the service account.
    const theirs = await create(owner, { visibility: 'organization' });
    expect((await robot.call('GET', `/api/v1/custom-reports/${theirs.id}`)).status).toBe(200);
    await owner.call('PATCH', `/api/v1/custom-reports/${theirs.id}`, { visibility: 'private' });
    expect((await robot.call('GET', `/api/v1/custom-reports/${theirs.id}`)).status).toBe(404);
  });

  it('a viewer reads and renders what it may see, and changes nothing', async () => {
    const { client: viewer } = await newMember('viewer');
    const orgWide = await create(owner, { name: 'for everyone', visibility: 'organization' });
    const priv = await create(owner, { name: 'mine' });
    expect((await viewer.call('GET', `/api/v1/custom-reports/${orgWide.id}`)).status).toBe(200);
    expect((await viewer.call('GET', `/api/v1/custom-reports/${orgWide.id}/render`)).status).toBe(200);
    expect((await viewer.call('GET', `/api/v1/custom-reports/${priv.id}`)).status).toBe(404);
    const before = await listIds(owner);
    for (const [method, url, payload] of [
      ['POST', '/api/v1/custom-reports', body()],
      ['PATCH', `/api/v1/custom-reports/${orgWide.id}`, { name: 'x' }],
      ['DELETE', `/api/v1/custom-reports/${orgWide.id}`, undefined],
    ] as const) {
      const r = await viewer.call(method, url, payload);
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
    }
    expect(await listIds(owner)).toEqual(before);
    expect((await owner.call('GET', `/api/v1/custom-reports/${orgWide.id}`)).body.name).toBe('for everyone');
  });

  it('bad input answers 422 naming the field and creates or changes nothing', async () => {
    const existing = await create(owner, { name: 'untouched', visibility: 'organization' });
    const target = await owner.call('POST', '/api/v1/sla-targets', {
      name: 'Shop SLA',
      monitor_ids: [shop],
      target_percent: 99.9,
      period: 'monthly',
    });
    const foreign = await clientOf(t, await t.createOrg()).createMonitor({ name: 'Elsewhere' });
    const tooMany = Array.from({ length: 51 }, (_, i) => ({ kind: 'availability', title: `w${i}` }));
    const cases: Array<[Json, string]> = [
      [{ widgets: [{ kind: 'uptime', title: 'x' }] }, 'widgets[0].kind'],
      [{ widgets: [{ kind: 'availability' }] }, 'widgets[0].title'],
      [{ widgets: [{ kind: 'availability', title: '   ' }] }, 'widgets[0].title'],
      [{ widgets: [{ kind: 'availability', title: 'x', colour: 'red' }] }, 'widgets[0].colour'],
      [
        {
          widgets: [
            { kind: 'availability', title: 'Same' },
            { kind: 'performance', title: ' Same ' },
          ],
        },
        'widgets[1].title',
      ],
      [{ widgets: [] }, 'widgets'],
      [{ widgets: tooMany }, 'widgets'],
      [{ visibility: 'public' }, 'visibility'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: '' }, 'name'],
      [{ period: 'last_year' }, 'period'],
      [{ period: { from: TO, to: FROM } }, 'period.from'],
      [{ period: { from: '2025-01-01T00:00:00Z', to: TO } }, 'period.to'],
      [{ period: { from: 'yesterday', to: TO } }, 'period.from'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ widgets: [{ kind: 'availability', title: 'x', monitor_ids: [foreign] }] }, 'widgets[0].monitor_ids[0]'],
      [
        { widgets: [{ kind: 'availability', title: 'x', monitor_ids: ['mon_00000000000000000000000000'] }] },
        'widgets[0].monitor_ids[0]',
      ],
      [{ widgets: [{ kind: 'availability', title: 'x', monitor_ids: [shop, shop] }] }, 'widgets[0].monitor_ids[1]'],
      [
        { widgets: [{ kind: 'availability', title: 'x', options: { sla_target_ids: [target.body.id] } }] },
        'widgets[0].options.sla_target_ids',
      ],
      [
        { widgets: [{ kind: 'sla', title: 'x', options: { sla_target_ids: ['sla_00000000000000000000000000'] } }] },
        'widgets[0].options.sla_target_ids[0]',
      ],
      [{ widgets: [{ kind: 'sla', title: 'x', options: { burn: true } }] }, 'widgets[0].options.burn'],
      [
        { widgets: [{ kind: 'sla', title: 'x', options: { sla_target_ids: [] } }] },
        'widgets[0].options.sla_target_ids',
      ],
      [{ widgets: [{ kind: 'availability', title: 'x', monitor_ids: [] }] }, 'widgets[0].monitor_ids'],
      [{ visibility: 'shared', shared_with_user_ids: [strangerId] }, 'shared_with_user_ids[0]'],
      [{ visibility: 'shared', shared_with_user_ids: ['usr_00000000000000000000000000'] }, 'shared_with_user_ids[0]'],
      [{ visibility: 'organization', shared_with_user_ids: [memberId] }, 'shared_with_user_ids'],
      [{ shared_with_user_ids: ['me'] }, 'shared_with_user_ids[0]'],
      [
        {
          visibility: 'shared',
          shared_with_user_ids: Array.from({ length: 101 }, (_, i) => `usr_${String(i).padStart(26, '0')}`),
        },
        'shared_with_user_ids',
      ],
      [{ widgets: [{ kind: 'availability', title: 't'.repeat(201) }] }, 'widgets[0].title'],
      [{ owner_id: memberId }, 'owner_id'],
    ];
    const before = await listIds(owner);
    for (const [extra, field] of cases) {
      const r = await owner.call('POST', '/api/v1/custom-reports', body(extra));
      expect(r.status, `${JSON.stringify(extra)}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(r.body.error.code).toBe('validation_failed');
      expect(
        r.body.error.details.map((d: Json) => d.field),
        JSON.stringify(extra),
      ).toContain(field);
      // The same on a PATCH of an existing report, which keeps its fields.
      const p = await owner.call('PATCH', `/api/v1/custom-reports/${existing.id}`, extra);
      expect(p.status, `PATCH ${JSON.stringify(extra)}`).toBe(422);
      expect(p.body.error.details.map((d: Json) => d.field)).toContain(field);
    }
    expect(await listIds(owner)).toEqual(before);
    expect((await owner.call('GET', `/api/v1/custom-reports/${existing.id}`)).body).toEqual(existing);
    const format = await owner.call('GET', `/api/v1/custom-reports/${existing.id}/render?format=xlsx`);
    expect(format.status).toBe(422);
    expect(format.body.error.details.map((d: Json) => d.field)).toEqual(['format']);
    expect((await owner.call('GET', '/api/v1/custom-reports/crp_nope')).status).toBe(404);
  });

  it('changes at the same time to different fields are both kept', async () => {
    const report = await create(owner, { visibility: 'organization' });
    for (let round = 0; round < 5; round++) {
      const name = `renamed ${round}`;
      const widgets = [{ kind: 'performance', title: `latency ${round}`, monitor_ids: [api] }];
      const results = await Promise.all([
        owner.call('PATCH', `/api/v1/custom-reports/${report.id}`, { name }),
        admin.call('PATCH', `/api/v1/custom-reports/${report.id}`, { widgets }),
        owner.call('PATCH', `/api/v1/custom-reports/${report.id}`, { timezone: round % 2 ? 'Asia/Tokyo' : 'UTC' }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const now = (await owner.call('GET', `/api/v1/custom-reports/${report.id}`)).body;
      expect(now).toMatchObject({ name, widgets, timezone: round % 2 ? 'Asia/Tokyo' : 'UTC' });
    }
  });

  it('POST with an Idempotency-Key creates one report; the replay answers the same', async () => {
    const before = (await listIds(owner)).length;
    const send = () =>
      t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/custom-reports',
        headers: { authorization: `Bearer ${org.apiKey}`, 'idempotency-key': `crp-${dialect}` },
        payload: body({ name: 'once' }),
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().id).toBe(first.json().id);
    expect((await listIds(owner)).length).toBe(before + 1);
  });

  it('render as JSON: one section per widget, each equal to the single report of its monitors and tags', async () => {
    clock.set('2026-05-02T06:00:00Z');
    const target = await owner.call('POST', '/api/v1/sla-targets', {
      name: 'API SLA',
      monitor_ids: [api],
      target_percent: 99.5,
      period: 'daily',
    });
    const report = await create(owner, {
      name: 'Zürich – weekly',
      timezone: 'Europe/Berlin',
      widgets: [
        { kind: 'availability', title: 'Shop uptime', monitor_ids: [shop] },
        { kind: 'performance', title: 'API latency', tags: ['api'] },
        { kind: 'sla', title: 'API SLA', options: { sla_target_ids: [target.body.id] } },
        { kind: 'availability', title: 'Everything' },
      ],
    });
    const r = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render?format=json`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      report: 'custom',
      id: report.id,
      name: 'Zürich – weekly',
      period: { from: FROM, to: TO, timezone: 'Europe/Berlin', preset: null },
      generated_at: '2026-05-02T06:00:00.000Z',
    });
    expect(r.body.sections.map((s: Json) => [s.title, s.kind])).toEqual([
      ['Shop uptime', 'availability'],
      ['API latency', 'performance'],
      ['API SLA', 'sla'],
      ['Everything', 'availability'],
    ]);
    const q = `from=${FROM}&to=${TO}&timezone=Europe/Berlin`;
    const single = async (path: string) => (await owner.call('GET', `/api/v1/reports/${path}`)).body;
    const expected = [
      await single(`availability?${q}&monitor_ids=${shop}`),
      await single(`performance?${q}&tags=api`),
      await single(`sla?${q}`),
      await single(`availability?${q}`),
    ];
    // The widget names one target: the SLA report narrowed to it, its summary counted over it.
    const only = expected[2].targets.filter((x: Json) => x.sla_target_id === target.body.id);
    const periods = only.flatMap((x: Json) => x.periods as Json[]);
    expected[2] = {
      ...expected[2],
      targets: only,
      summary: {
        targets: 1,
        in_progress: only.filter((x: Json) => x.current.status === 'in_progress').length,
        budget_exhausted: only.filter((x: Json) => x.current.error_budget_exhausted === true).length,
        no_data: only.filter((x: Json) => x.current.status === 'no_data').length,
        met: periods.filter((p: Json) => p.status === 'met').length,
        missed: periods.filter((p: Json) => p.status === 'missed').length,
      },
    };
    expect(expected[2].summary).toMatchObject({ targets: 1, in_progress: 1, budget_exhausted: 0, no_data: 0 });
    r.body.sections.forEach((s: Json, i: number) => expect(s.report).toEqual(expected[i]));
    expect(r.body.sections[0].report.summary.downtime_seconds).toBe(600);
    expect(r.body.sections[1].report.monitors.map((m: Json) => m.name)).toEqual(['API', 'Staging API']);
    expect(r.body.sections[2].report.summary.targets).toBe(1);

    // A preset period is resolved at each render (here the 7 days before now).
    await owner.call('PATCH', `/api/v1/custom-reports/${report.id}`, { period: 'last_7_days' });
    const preset = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render`);
    expect(preset.body.period).toEqual({
      from: '2026-04-25T06:00:00.000Z',
      to: '2026-05-02T06:00:00.000Z',
      timezone: 'Europe/Berlin',
      preset: 'last_7_days',
    });
    expect(preset.body.sections[0].report.period.preset).toBe('last_7_days');
    expect(preset.body.sections[0].report.summary.downtime_seconds).toBe(600);
  });

  it('render as CSV (a leading section column) and PDF (a section per widget) with the JSON figures', async () => {
    clock.set('2026-05-02T06:00:00Z');
    const report = await create(owner, {
      name: 'Zürich – Łódź, "weekly"',
      widgets: [
        { kind: 'availability', title: 'Shop, "uptime"', monitor_ids: [shop] },
        { kind: 'performance', title: 'API latency', tags: ['api'] },
        { kind: 'availability', title: 'Every monitor we run' },
      ],
    });
    const json = (await owner.call('GET', `/api/v1/custom-reports/${report.id}/render`)).body;
    const csv = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(csv.raw.headers['content-disposition'])).toMatch(/^attachment; filename="tocsin-.+\.csv"$/);
    const text = csv.raw.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header![0]).toBe('section');
    expect(new Set(rows.map((r) => r.length))).toEqual(new Set([header!.length]));
    const col = (name: string) => header!.indexOf(name);
    // One row per monitor of each section, in widget order, each row's figures those of its section's JSON.
    const expected = (json.sections as Json[]).flatMap((s) =>
      (s.report.monitors as Json[]).map((m) => ({ section: s.title, m })),
    );
    expect(rows.map((r) => [r[0], r[col('monitor_id')]])).toEqual(expected.map((e) => [e.section, e.m.monitor_id]));
    rows.forEach((r, i) => {
      const { m } = expected[i]!;
      for (const name of ['uptime_percent', 'downtime_seconds', 'checks', 'p50_ms', 'p95_ms']) {
        if (name in m) expect(r[col(name)], name).toBe(m[name] === null ? '' : String(m[name]));
      }
    });
    const downtime = (title: string) =>
      rows.filter((r) => r[0] === title).reduce((sum, r) => sum + Number(r[col('downtime_seconds')]), 0);
    expect(downtime('Shop, "uptime"')).toBe(json.sections[0].report.summary.downtime_seconds);
    expect(downtime('Every monitor we run')).toBe(json.sections[2].report.summary.downtime_seconds);
    expect(downtime('Every monitor we run')).toBe(600);

    const pdf = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render?format=pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.raw.headers['content-type']).toBe('application/pdf');
    expect(String(pdf.raw.headers['content-disposition'])).toMatch(/^attachment; filename="tocsin-.+\.pdf"$/);
    const pages = pdfPages(pdf.raw.rawPayload);
    const all = pages.join('\n');
    expect(all).toContain('Zürich – Łódź, "weekly"');
    // The figures are the JSON's: the Shop section's uptime and its one incident's downtime.
    expect(json.sections[0].report.summary.uptime_percent).toBe(99.30556);
    expect(pages.find((p) => p.includes('Shop, "uptime"') && p.includes('Availability report'))).toContain(
      '99.30556 %',
    );
    // Each widget starts its own section, in order, after the first page.
    const starts = ['Shop, "uptime"', 'API latency', 'Every monitor we run'].map((title) =>
      pages.findIndex((p, i) => i > 0 && p.includes(title)),
    );
    expect(starts.every((p) => p > 0)).toBe(true);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(new Set(starts).size).toBe(3);
  });

  it('every kind of widget: incidents, intelligence and monitor health sections equal their single reports', async () => {
    clock.set('2026-05-02T06:00:00Z');
    const report = await create(owner, {
      timezone: 'Europe/Berlin',
      widgets: [
        { kind: 'incidents', title: 'Shop incidents', monitor_ids: [shop] },
        { kind: 'intelligence', title: 'What changed', tags: ['api'] },
        { kind: 'monitor_health', title: 'Monitor health' },
        { kind: 'availability', title: 'Uptime' },
        { kind: 'performance', title: 'Latency', monitor_ids: [api] },
        { kind: 'sla', title: 'SLAs' },
      ],
    });
    const r = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const q = `from=${FROM}&to=${TO}&timezone=Europe/Berlin`;
    const single = async (path: string) => (await owner.call('GET', `/api/v1/reports/${path}`)).body;
    const expected = [
      await single(`incidents?${q}&monitor_ids=${shop}`),
      await single(`intelligence?${q}&tags=api`),
      await single(`monitor-health?${q}`),
      await single(`availability?${q}`),
      await single(`performance?${q}&monitor_ids=${api}`),
      await single(`sla?${q}`),
    ];
    expect(r.body.sections.map((s: Json) => s.report.report)).toEqual([
      'incidents',
      'intelligence',
      'monitor_health',
      'availability',
      'performance',
      'sla',
    ]);
    r.body.sections.forEach((s: Json, i: number) => expect(s.report, s.title).toEqual(expected[i]));
    expect(r.body.sections[0].report.summary.count).toBe(1);

    // CSV: every section's rows under its title; PDF: a section per widget.
    const csv = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render?format=csv`);
    expect(csv.status).toBe(200);
    const [header, ...rows] = parseCsv(csv.raw.rawPayload.toString('utf8').slice(1));
    expect(new Set(rows.map((row) => row.length))).toEqual(new Set([header!.length]));
    const incidentRows = rows.filter((row) => row[0] === 'Shop incidents');
    expect(incidentRows.map((row) => row[header!.indexOf('id')])).toEqual(
      r.body.sections[0].report.incidents.map((i: Json) => i.id),
    );
    expect(rows.filter((row) => row[0] === 'Uptime')).toHaveLength(r.body.sections[3].report.monitors.length);
    const pdf = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render?format=pdf`);
    expect(pdf.status).toBe(200);
    const pages = pdfPages(pdf.raw.rawPayload);
    for (const title of ['Shop incidents', 'What changed', 'Monitor health', 'Uptime', 'Latency', 'SLAs']) {
      expect(
        pages.some((p, i) => i > 0 && p.includes(title)),
        title,
      ).toBe(true);
    }
  });

  it("the service's render gives other callers (scheduled reports) the files the route gives", async () => {
    clock.set('2026-05-02T06:00:00Z');
    const report = await create(owner, {
      name: 'Für Kunden',
      widgets: [
        { kind: 'availability', title: 'Uptime', monitor_ids: [shop] },
        { kind: 'incidents', title: 'Incidents' },
      ],
    });
    const actor = await t.tocsin.services.auth.authenticate(org.apiKey);
    const ctx = { actor: actor!, db: t.tocsin.database, clock };
    const service = t.tocsin.services.customReports;
    const json = await service.render(ctx, report.id, 'json');
    expect(json.contentType).toBe('application/json; charset=utf-8');
    expect(json.filename).toBe('tocsin-fur-kunden-2026-05-01-2026-05-01.json');
    const route = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render`);
    expect(JSON.parse(json.body.toString('utf8'))).toEqual(route.body);
    const csv = await service.render(ctx, report.id, 'csv');
    const routeCsv = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render?format=csv`);
    expect(csv.filename).toBe('tocsin-fur-kunden-2026-05-01-2026-05-01.csv');
    expect(csv.body.equals(routeCsv.raw.rawPayload)).toBe(true);
    const pdf = await service.render(ctx, report.id, 'pdf');
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    // Visibility holds for them too: another member's actor does not find a private report.
    const memberKey = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'member',
      scopes: [...SCOPES],
      userId: memberId,
    });
    const memberCtx = { ...ctx, actor: (await t.tocsin.services.auth.authenticate(memberKey.key))! };
    await expect(service.render(memberCtx, report.id, 'csv')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("a key's environments narrow what it sees of an organization report; deleted monitors drop out", async () => {
    const report = await create(owner, {
      visibility: 'organization',
      widgets: [
        { kind: 'availability', title: 'Staging only', monitor_ids: [staging] },
        { kind: 'availability', title: 'Both', monitor_ids: [api, staging] },
      ],
    });
    const production = await keyOf({ environments: ['production'] });
    const read = await production.call('GET', `/api/v1/custom-reports/${report.id}`);
    expect(read.body.widgets.map((w: Json) => w.monitor_ids)).toEqual([[], [api]]);
    const rendered = await production.call('GET', `/api/v1/custom-reports/${report.id}/render`);
    expect(rendered.body.sections[0]).toMatchObject({ report: null });
    expect(rendered.body.sections[0].notice).toMatch(/None of this widget/);
    expect(rendered.body.sections[1].report.monitors.map((m: Json) => m.monitor_id)).toEqual([api]);
    // The owner's key still sees both, as stored.
    const full = await owner.call('GET', `/api/v1/custom-reports/${report.id}/render`);
    expect(full.body.sections[1].report.monitors.map((m: Json) => m.monitor_id).sort()).toEqual([api, staging].sort());

    // A monitor deleted before the period begins is absent; one deleted during it keeps its history.
    const gone = await owner.createMonitor({ name: 'Gone' });
    const later = await create(owner, {
      period: { from: '2026-05-03T00:00:00Z', to: '2026-05-04T00:00:00Z' },
      widgets: [
        { kind: 'availability', title: 'Gone and API', monitor_ids: [gone, api] },
        { kind: 'availability', title: 'Gone', monitor_ids: [gone] },
      ],
    });
    expect((await owner.call('DELETE', `/api/v1/monitors/${gone}`)).status).toBe(204);
    const afterDelete = await owner.call('GET', `/api/v1/custom-reports/${later.id}/render`);
    expect(afterDelete.status).toBe(200);
    expect(afterDelete.body.sections[0].report.monitors.map((m: Json) => m.monitor_id)).toEqual([api]);
    expect(afterDelete.body.sections[1].report).toBeNull();
    const during = await owner.call('PATCH', `/api/v1/custom-reports/${later.id}`, {
      period: { from: FROM, to: '2026-05-03T00:00:00Z' },
    });
    expect(during.status).toBe(200);
    const duringRender = await owner.call('GET', `/api/v1/custom-reports/${later.id}/render`);
    expect(duringRender.body.sections[1].report.monitors.map((m: Json) => m.monitor_id)).toEqual([gone]);
    // A deleted monitor cannot be put into a widget any more.
    const refused = await owner.call('PATCH', `/api/v1/custom-reports/${later.id}`, {
      widgets: [{ kind: 'availability', title: 'x', monitor_ids: [gone] }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0].field).toBe('widgets[0].monitor_ids[0]');
  });

  it('scopes and plan: custom_reports:read/write, reports:read to render, a plan with reports', async () => {
    const report = await create(owner, { visibility: 'organization' });
    const readOnly = await keyOf({ scopes: ['custom_reports:read', 'reports:read'] });
    expect((await readOnly.call('GET', `/api/v1/custom-reports/${report.id}`)).status).toBe(200);
    const write = await readOnly.call('POST', '/api/v1/custom-reports', body());
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('insufficient_scope');
    expect((await readOnly.call('DELETE', `/api/v1/custom-reports/${report.id}`)).status).toBe(403);
    const noReports = await keyOf({ scopes: ['custom_reports:read'] });
    expect((await noReports.call('GET', `/api/v1/custom-reports/${report.id}`)).status).toBe(200);
    const render = await noReports.call('GET', `/api/v1/custom-reports/${report.id}/render`);
    expect(render.status).toBe(403);
    expect(render.body.error.message).toContain('reports:read');
    const writeOnly = await keyOf({ scopes: ['custom_reports:write'] });
    expect((await writeOnly.call('GET', `/api/v1/custom-reports/${report.id}`)).status).toBe(403);

    const team = clientOf(t, await t.createOrg({ plan: 'team' }));
    for (const [method, url] of [
      ['POST', '/api/v1/custom-reports'],
      ['GET', '/api/v1/custom-reports'],
      ['GET', `/api/v1/custom-reports/${report.id}`],
    ] as const) {
      const r = await team.call(method, url, method === 'POST' ? body() : undefined);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('plan_upgrade_required');
    }
  });

  it('the OpenAPI document describes every custom-report operation', async () => {
    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const ops = ['/api/v1/custom-reports', '/api/v1/custom-reports/{id}', '/api/v1/custom-reports/{id}/render'].flatMap(
      (p) => Object.values(doc.paths[p] ?? {}).map((o) => (o as Json).operationId),
    );
    expect(ops.sort()).toEqual(
      [
        'createCustomReport',
        'listCustomReports',
        'getCustomReport',
        'updateCustomReport',
        'deleteCustomReport',
        'renderCustomReport',
      ].sort(),
    );
  });
});
