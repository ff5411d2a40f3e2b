import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode } from '../api-access/helpers.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createPerson, inSession, signIn } from '../support/sessions.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const MONITOR = { name: 'Checkout', target: 'https://checkout.example.com/health', interval_seconds: 60 };

describe.each(testDialects())('audit log over HTTP (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    org = await t.createOrg();
  });
  afterAll(async () => {
    await t.close();
  });

  /** Entries within one millisecond have no order among themselves: each step gets its own. */
  function tick(): void {
    (t.clock as ManualClock).advance(1);
  }

  async function entries(query = ''): Promise<Json[]> {
    const res = await call(t, org.apiKey, 'GET', `/api/v1/audit-log${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Json).data as Json[];
  }

  it('records a monitor change with its key, address, request id and field-by-field changes', async () => {
    const created = await call(t, org.apiKey, 'POST', '/api/v1/monitors', {
      body: MONITOR,
      headers: { 'x-request-id': 'req_audit_create_1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as Json).id as string;
    tick();
    const patched = await call(t, org.apiKey, 'PATCH', `/api/v1/monitors/${id}`, { body: { name: 'Checkout v2' } });
    expect(patched.statusCode, patched.body).toBe(200);

    const list = await entries(`?target_id=${id}`);
    expect(list.map((e) => e.action)).toEqual(['monitor.update', 'monitor.create']);
    const [update, create] = list;
    expect(update!.id).toMatch(/^aud_/);
    expect(update!.actor).toEqual({ type: 'key', id: org.keyId, name: 'test' });
    expect(update!.target).toEqual({ type: 'monitor', id });
    expect(update!.changes).toEqual({ name: ['Checkout', 'Checkout v2'] });
    expect(create!.changes.name).toEqual([null, 'Checkout']);
    expect(create!.request_id).toBe('req_audit_create_1');
    expect(create!.ip).toBe('127.0.0.1');
    expect(Date.parse(update!.at as string)).toBeGreaterThan(0);
  });

  it('filters by action, actor, target type and time, and pages with a cursor', async () => {
    for (let i = 0; i < 3; i += 1) {
      tick();
      expect((await call(t, org.apiKey, 'POST', '/api/v1/monitors', { body: MONITOR })).statusCode).toBe(201);
    }
    expect((await entries('?action=monitor.create')).length).toBe(4);
    expect((await entries(`?actor_id=${org.keyId}&target_type=monitor`)).length).toBe(5);
    expect(await entries('?actor_id=key_nobody')).toEqual([]);
    const future = new Date(t.clock.now() + 60_000).toISOString();
    expect(await entries(`?from=${future}`)).toEqual([]);
    expect((await entries(`?to=${future}&action=monitor.create`)).length).toBe(4);

    const first = (await call(t, org.apiKey, 'GET', '/api/v1/audit-log?limit=3')).json() as Json;
    expect(first.data).toHaveLength(3);
    const second = (
      await call(t, org.apiKey, 'GET', `/api/v1/audit-log?limit=3&cursor=${first.next_cursor}`)
    ).json() as Json;
    const ids = [...first.data, ...second.data].map((e: Json) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort().reverse()).toEqual(ids);
    const bad = await call(t, org.apiKey, 'GET', '/api/v1/audit-log?from=yesterday');
    expect(bad.statusCode).toBe(422);
  });

  it('exports CSV with every entry, formula-like cells neutralised', async () => {
    tick();
    const key = await call(t, org.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: '=HYPERLINK("http://evil.example")', scopes: ['monitors:write'] },
    });
    expect(key.statusCode, key.body).toBe(201);
    tick();
    const evil = await call(t, (key.json() as Json).key as string, 'POST', '/api/v1/monitors', { body: MONITOR });
    expect(evil.statusCode, evil.body).toBe(201);
    const res = await call(t, org.apiKey, 'GET', '/api/v1/audit-log/export?action=monitor.create');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('id,at,actor_type,actor_id,actor_name,action,target_type,target_id,changes,ip,request_id');
    expect(lines).toHaveLength(1 + 5);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://evil.example"")",monitor.create,`);
  });

  it('is for owners and admins: a member is refused, a key without audit:read too', async () => {
    await createPerson(t, org.organizationId, 'member', 'mia@example.com', 'member password 1');
    const member = await signIn(t, 'mia@example.com', 'member password 1');
    const refused = await inSession(t, member, 'GET', '/api/v1/audit-log');
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('forbidden');
    const narrow = await t.createOrg({ scopes: ['monitors:read'] });
    const res = await call(t, narrow.apiKey, 'GET', '/api/v1/audit-log');
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('insufficient_scope');
  });

  it('records a change once: an idempotent replay adds no entry', async () => {
    tick();
    const headers = { 'idempotency-key': 'audit-replay-1' };
    const first = await call(t, org.apiKey, 'POST', '/api/v1/monitors', {
      body: { ...MONITOR, name: 'Once' },
      headers,
    });
    expect(first.statusCode).toBe(201);
    const replay = await call(t, org.apiKey, 'POST', '/api/v1/monitors', {
      body: { ...MONITOR, name: 'Once' },
      headers,
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const id = (first.json() as Json).id as string;
    expect((await entries(`?target_id=${id}`)).map((e) => e.action)).toEqual(['monitor.create']);
  });

  it('lists only the organization’s own entries', async () => {
    const other = await t.createOrg();
    const res = await call(t, other.apiKey, 'GET', '/api/v1/audit-log');
    expect((res.json() as Json).data).toEqual([]);
  });

  it('records sign-ins, failed sign-ins (the address, never the password) and sign-outs of a person', async () => {
    await createPerson(t, org.organizationId, 'admin', 'ada@example.com', 'admin password 1');
    const failed = await inSession(t, null, 'POST', '/api/v1/auth/sessions', {
      body: { email: 'ada@example.com', password: 'wrong password 9' },
    });
    expect(failed.statusCode).toBe(401);
    tick();
    const ada = await signIn(t, 'ada@example.com', 'admin password 1');
    tick();
    expect((await inSession(t, ada, 'DELETE', '/api/v1/auth/session')).statusCode).toBe(204);
    const list = await entries('?target_type=session');
    expect(list.slice(0, 2).map((e) => e.action)).toEqual(['session.sign_out', 'session.sign_in']);
    expect(list[0]!.actor.name).toBe('ada');
    const fails = await entries('?action=session.sign_in_failed');
    expect(fails).toHaveLength(1);
    expect(fails[0]!.changes).toEqual({ email: [null, 'ada@example.com'] });
    expect(JSON.stringify(fails)).not.toContain('wrong password');
  });
});
