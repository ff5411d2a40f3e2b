import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode } from '../api-access/helpers.ts';
import { createMonitor } from '../alerting/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createPerson, inSession, signIn, type Browser } from '../support/sessions.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the OpenAPI document and table rows
const PASSWORD = 'viewer password 1';
const MUTATING = ['post', 'put', 'patch', 'delete'];

/** Every row of every table, to show that refused calls changed nothing. */
async function snapshot(t: TestApp): Promise<Record<string, unknown[]>> {
  const db = t.tocsin.database.tables<Json>();
  const tables = (await db.introspection.getTables()).map((x) => x.name).sort();
  const out: Record<string, unknown[]> = {};
  for (const name of tables) {
    const rows = await sql<Json>`select * from ${sql.table(name)}`.execute(db);
    out[name] = rows.rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

describe.each(testDialects())('roles in sessions (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let viewer: Browser;
  let member: Browser;
  let monitorId: string;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    org = await t.createOrg();
    monitorId = await createMonitor(t, org.apiKey);
    await createPerson(t, org.organizationId, 'viewer', 'vera@example.com', PASSWORD);
    await createPerson(t, org.organizationId, 'member', 'max@example.com', PASSWORD);
    viewer = await signIn(t, 'vera@example.com', PASSWORD);
    member = await signIn(t, 'max@example.com', PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets a viewer read and refuses every write of the OpenAPI document with 403, changing nothing', async () => {
    expect((await inSession(t, viewer, 'GET', '/api/v1/monitors')).json().data).toHaveLength(1);
    expect((await inSession(t, viewer, 'GET', `/api/v1/monitors/${monitorId}`)).statusCode).toBe(200);
    expect((await inSession(t, viewer, 'GET', '/api/v1/auth/organization/members')).statusCode).toBe(200);

    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Json;
    const before = await snapshot(t);
    const walked: string[] = [];
    const answers: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const method of MUTATING) {
        const op = (item as Json)[method] as Json | undefined;
        if (!op) continue;
        const security = (op.security ?? []) as Json[];
        // Public operations (sign-in, setup, heartbeats …) and the person's own sessions are not role-bound.
        if (security.length === 0 || !security.some((s) => 'bearerAuth' in s)) continue;
        const url = path.replace(/\{[^}]+\}/g, monitorId);
        const res = await inSession(t, viewer, method.toUpperCase(), url, { body: {} });
        walked.push(`${method.toUpperCase()} ${path}`);
        if (res.statusCode !== 403 || errorCode(res) !== 'forbidden')
          answers.push(`${method.toUpperCase()} ${path}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(answers).toEqual([]);
    expect(walked.length).toBeGreaterThan(30);
    expect(walked).toContain('DELETE /api/v1/monitors/{id}');
    expect(await snapshot(t)).toEqual(before);
    // The viewer still signs out and manages their own sessions.
    expect((await inSession(t, viewer, 'GET', '/api/v1/auth/sessions')).statusCode).toBe(200);
  });

  it('keeps destinations, members and keys of others to owners and admins', async () => {
    const hook = { name: 'Ops', type: 'generic_webhook', config: { url: 'https://hooks.example.com/x' } };
    const refused = [
      await inSession(t, member, 'POST', '/api/v1/auth/organization/webhooks', { body: hook }),
      await inSession(t, member, 'POST', '/api/v1/auth/organization/members', { body: { email: 'x@example.com' } }),
      await inSession(t, member, 'PATCH', `/api/v1/auth/organization/members/${org.userId}`, {
        body: { role: 'viewer' },
      }),
      await inSession(t, member, 'POST', '/api/v1/api-keys', { body: { name: 'k', scopes: ['monitors:read'] } }),
      await inSession(t, member, 'DELETE', `/api/v1/api-keys/${org.keyId}`),
      await inSession(t, member, 'PATCH', '/api/v1/auth/organization', { body: { email_alerts_enabled: false } }),
    ];
    expect(refused.map((r) => [r.statusCode, errorCode(r)])).toEqual(refused.map(() => [403, 'forbidden']));
    // A member changes monitors and incidents like a key with those scopes.
    const made = await inSession(t, member, 'POST', '/api/v1/monitors', {
      body: { name: 'Member made', target: 'https://m.example.com/', interval_seconds: 60 },
    });
    expect(made.statusCode).toBe(201);
    expect((await call(t, org.apiKey, 'GET', `/api/v1/api-keys/${org.keyId}`)).json().revoked_at).toBeNull();
  });

  it('changes roles (owner/admin only, the last owner stays) and the session follows at once', async () => {
    const owner = await createPerson(t, org.organizationId, 'admin', 'adam@example.com', PASSWORD);
    const admin = await signIn(t, 'adam@example.com', PASSWORD);
    const maxId = (await t.tocsin.services.orgs.listMembers(org.organizationId)).find(
      (m) => m.user.email === 'max@example.com',
    )!.user.id;
    const bad = await inSession(t, admin, 'PATCH', `/api/v1/auth/organization/members/${maxId}`, {
      body: { role: 'boss' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details[0].field).toBe('role');
    const toOwner = await inSession(t, admin, 'PATCH', `/api/v1/auth/organization/members/${maxId}`, {
      body: { role: 'owner' },
    });
    expect(toOwner.statusCode).toBe(422);
    const demoteLastOwner = await call(t, org.apiKey, 'PATCH', `/api/v1/auth/organization/members/${org.userId}`, {
      body: { role: 'admin' },
    });
    expect(demoteLastOwner.statusCode).toBe(422);
    expect(demoteLastOwner.json().error.details).toEqual([
      { field: 'role', issue: 'the organization needs at least one owner' },
    ]);

    const changed = await inSession(t, admin, 'PATCH', `/api/v1/auth/organization/members/${maxId}`, {
      body: { role: 'viewer' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ user_id: maxId, role: 'viewer' });
    expect((await inSession(t, member, 'GET', '/api/v1/auth/session')).json().role).toBe('viewer');
    const nowRefused = await inSession(t, member, 'POST', '/api/v1/monitors', {
      body: { name: 'Too late', target: 'https://m.example.com/', interval_seconds: 60 },
    });
    expect(nowRefused.statusCode).toBe(403);
    expect(owner.userId).toMatch(/^usr_/);

    // Invite as viewer.
    const invited = await inSession(t, admin, 'POST', '/api/v1/auth/organization/members', {
      body: { email: 'watcher@example.com', role: 'viewer' },
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ role: 'viewer' });
  });
});
