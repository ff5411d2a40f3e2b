import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/modules/auth/index.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call, errorCode } from '../api-access/helpers.ts';

describe.each(testDialects())('API keys and service accounts (%s)', (dialect) => {
  let t: TestApp;
  const clock = new ManualClock('2026-11-22T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
  });
  afterAll(async () => t.close());

  it('creates a key, returns the value once, and lists and reads it without the value', async () => {
    const o = await t.createOrg();
    const res = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'deploy', scopes: ['monitors:read'], expires_at: '2027-01-01T00:00:00.000Z' },
    });
    expect(res.statusCode).toBe(201);
    const k = res.json();
    expect(k.key).toMatch(/^tsk_/);
    expect(k).toMatchObject({
      name: 'deploy',
      prefix: k.key.slice(0, 8),
      scopes: ['monitors:read'],
      environments: ['production'],
      expires_at: '2027-01-01T00:00:00.000Z',
      rate_limits: { read_per_minute: 600, write_per_minute: 120, delete_per_minute: 60 },
      created_by: o.userId,
      service_account_id: null,
      last_used_at: null,
      revoked_at: null,
    });
    const got = await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().key).toBeUndefined();
    expect(got.body).not.toContain(k.key);
    const list = await call(t, o.apiKey, 'GET', '/api/v1/api-keys?limit=1');
    expect(list.json().data).toHaveLength(1);
    expect(list.json().next_cursor).not.toBeNull();
    const page2 = await call(t, o.apiKey, 'GET', `/api/v1/api-keys?limit=1&cursor=${list.json().next_cursor}`);
    expect([list.json().data[0].id, page2.json().data[0].id].sort()).toEqual([o.keyId, k.id].sort());
    expect(page2.body).not.toContain(k.key);
    // The new key works within its scope and environment.
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    expect(errorCode(await call(t, k.key, 'GET', '/api/v1/api-keys'))).toBe('insufficient_scope');
  });

  it('refuses to grant scopes or environments the creator lacks, naming them', async () => {
    const o = await t.createOrg({ scopes: ['keys:write', 'monitors:read'], environments: ['staging'] });
    const res = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['monitors:read', 'monitors:delete'], environments: ['staging', 'production'] },
    });
    expect(res.statusCode).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    const details = res.json().error.details as Array<{ field: string; issue: string }>;
    expect(details).toContainEqual({ field: 'scopes[1]', issue: expect.stringContaining('monitors:delete') });
    expect(details).toContainEqual({ field: 'environments[1]', issue: expect.stringContaining('production') });
    const unknown = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['monitors:everything'], environments: ['staging'] },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.details[0].issue).toContain('monitors:everything');
    const past = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['monitors:read'], environments: ['staging'], expires_at: '2020-01-01T00:00:00Z' },
    });
    expect(past.json().error.details).toContainEqual({ field: 'expires_at', issue: 'must be in the future' });
    const badLimit = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['monitors:read'], environments: ['staging'], rate_limits: { read_per_minute: 0 } },
    });
    expect(badLimit.statusCode).toBe(422);
  });

  it('an unknown scope is called unknown, with the known scopes listed, one detail per field', async () => {
    const o = await t.createOrg({ scopes: ['keys:write', 'monitors:read'] });
    const res = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['monitors:everything', 'monitors:read', 'monitors:delete'] },
    });
    expect(res.statusCode).toBe(422);
    const error = res.json().error as { message: string; details: Array<{ field: string; issue: string }> };
    expect(error.message).toBe('The key names a scope that does not exist and would grant more than its creator has.');
    expect(error.details.map((d) => d.field)).toEqual(['scopes[0]', 'scopes[2]']);
    expect(error.details[0]!.issue).toMatch(/^monitors:everything is not a known scope; the known scopes are /);
    expect(error.details[0]!.issue).toContain('monitors:read, monitors:create, monitors:write');
    expect(error.details[0]!.issue).toContain('keys:write');
    expect(error.details[0]!.issue).not.toContain('creator');
    expect(error.details[1]!.issue).toContain('monitors:delete');

    const onlyUnknown = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['everything', 'everything'] },
    });
    expect(onlyUnknown.statusCode).toBe(422);
    expect(onlyUnknown.json().error.message).toBe('The key names a scope that does not exist.');
    expect(onlyUnknown.json().error.details.map((d: { field: string }) => d.field)).toEqual(['scopes[0]', 'scopes[1]']);
  });

  it("names an unknown scope in the same answer as the body's other problems (nothing created)", async () => {
    const o = await t.createOrg({ scopes: ['keys:write', 'monitors:read'], environments: ['production'] });
    const list = async () =>
      (await call(t, o.apiKey, 'GET', '/api/v1/api-keys?limit=100')).json().data as Array<{ id: string }>;
    const before = (await list()).length;
    const res = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: '', scopes: ['monitors:read', 'monitors:everything', 7], environments: ['staging'], colour: 'red' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      { field: 'colour', issue: 'is not a known field' },
      { field: 'name', issue: 'must not be empty' },
      { field: 'scopes[2]', issue: 'must be string' },
      { field: 'scopes[1]', issue: expect.stringMatching(/^monitors:everything is not a known scope/) },
      { field: 'environments[0]', issue: 'the creating key lacks the environment staging; a key cannot grant it' },
    ]);
    expect((await list()).length).toBe(before);
  });

  it('keys:write works only for keys owned by an owner or admin', async () => {
    const member = await t.createOrg({ role: 'member' });
    const res = await call(t, member.apiKey, 'GET', '/api/v1/api-keys');
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('forbidden');
    // A member service account cannot own a key with an admin-only scope.
    const o = await t.createOrg();
    const sa = (
      await call(t, o.apiKey, 'POST', '/api/v1/service-accounts', { body: { name: 'bot', role: 'member' } })
    ).json();
    const bad = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['destinations:write'], service_account_id: sa.id },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.details[0]).toEqual({
      field: 'scopes[0]',
      issue: expect.stringContaining('destinations:write'),
    });
  });

  it('rotates: same id and settings, new value, old value valid for the grace period only', async () => {
    const o = await t.createOrg();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'r', scopes: ['monitors:read'], rate_limits: { read_per_minute: 7 } },
      })
    ).json();
    const rot = await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`);
    expect(rot.statusCode).toBe(200);
    const r = rot.json();
    expect(r.id).toBe(k.id);
    expect(r.key).not.toBe(k.key);
    expect(r.rate_limits.read_per_minute).toBe(7);
    expect(r.prefix).toBe(r.key.slice(0, 8));
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    clock.advance(86_400_000 - 5_000);
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    clock.advance(6_000);
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
    expect((await call(t, r.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    // grace 0 ends the old value at once.
    const rot2 = (
      await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`, { body: { grace_seconds: 0 } })
    ).json();
    expect((await call(t, r.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
    expect((await call(t, rot2.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    // Revoking ends both values; a revoked key cannot be rotated.
    const rot3 = (
      await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`, { body: { grace_seconds: 3600 } })
    ).json();
    await call(t, o.apiKey, 'DELETE', `/api/v1/api-keys/${k.id}`);
    expect((await call(t, rot2.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
    expect((await call(t, rot3.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
    expect((await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`)).statusCode).toBe(409);
    expect(
      (await call(t, o.apiKey, 'POST', `/api/v1/api-keys/${k.id}/rotate`, { body: { grace_seconds: -1 } })).statusCode,
    ).toBe(422);
  });

  it('expired keys are refused', async () => {
    const o = await t.createOrg();
    const expires = new Date(clock.now() + 60_000).toISOString();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'e', scopes: ['monitors:read'], expires_at: expires },
      })
    ).json();
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
  });

  it('revocation reaches another process within the cache time', async () => {
    const o = await t.createOrg();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', { body: { name: 'c', scopes: ['monitors:read'] } })
    ).json();
    const other = createAuth({ database: t.db.reopen(), clock });
    expect(await other.authenticate(k.key)).not.toBeNull();
    await call(t, o.apiKey, 'DELETE', `/api/v1/api-keys/${k.id}`);
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401); // this process: at once
    expect(await other.authenticate(k.key)).not.toBeNull(); // other process: cached
    clock.advance(1001);
    expect(await other.authenticate(k.key)).toBeNull();
  });

  it('keys:write reaches only keys within its own scopes and environments (404 otherwise, never the value)', async () => {
    const o = await t.createOrg();
    const create = async (body: Record<string, unknown>) =>
      (await call(t, o.apiKey, 'POST', '/api/v1/api-keys', { body })).json() as { id: string; key: string };
    const limited = await create({
      name: 'limited',
      scopes: ['keys:write', 'monitors:read'],
      environments: ['staging'],
    });
    const production = await create({ name: 'prod', scopes: ['monitors:read'], environments: ['production'] });
    const stronger = await create({
      name: 'strong',
      scopes: ['monitors:read', 'monitors:delete'],
      environments: ['staging'],
    });
    const weaker = await create({ name: 'weak', scopes: ['monitors:read'], environments: ['staging'] });
    for (const target of [production, stronger, { id: o.keyId, key: o.apiKey }]) {
      for (const [method, url] of [
        ['GET', `/api/v1/api-keys/${target.id}`],
        ['GET', `/api/v1/api-keys/${target.id}/usage`],
        ['POST', `/api/v1/api-keys/${target.id}/rotate`],
        ['DELETE', `/api/v1/api-keys/${target.id}`],
      ] as const) {
        const res = await call(t, limited.key, method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(errorCode(res)).toBe('not_found');
        expect(res.json().key).toBeUndefined();
      }
      // Neither rotated nor revoked: the stronger keys still work with their old value.
      expect((await call(t, target.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    }
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/v1/api-keys?limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await call(t, limited.key, 'GET', url)).json() as {
        data: Array<{ id: string }>;
        next_cursor: string | null;
      };
      listed.push(...page.data.map((k) => k.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(listed.sort()).toEqual([limited.id, weaker.id].sort());
    // A key within its reach is managed as before.
    const rotated = await call(t, limited.key, 'POST', `/api/v1/api-keys/${weaker.id}/rotate`, {
      body: { grace_seconds: 0 },
    });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().key).toMatch(/^tsk_/);
    expect((await call(t, limited.key, 'DELETE', `/api/v1/api-keys/${weaker.id}`)).statusCode).toBe(200);
    // The organization's full key still manages every key.
    expect((await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${stronger.id}`)).statusCode).toBe(200);
  });

  it('a service account owning a key beyond the caller is not deleted (403, its keys keep working)', async () => {
    const o = await t.createOrg();
    const sa = (
      await call(t, o.apiKey, 'POST', '/api/v1/service-accounts', { body: { name: 'deployer', role: 'admin' } })
    ).json() as { id: string };
    const strong = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'sa-prod', scopes: ['monitors:read'], environments: ['production'], service_account_id: sa.id },
      })
    ).json() as { key: string };
    const limited = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'limited', scopes: ['keys:write', 'monitors:read'], environments: ['staging'] },
      })
    ).json() as { key: string };
    const refused = await call(t, limited.key, 'DELETE', `/api/v1/service-accounts/${sa.id}`);
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('forbidden');
    expect((await call(t, strong.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    expect((await call(t, o.apiKey, 'GET', `/api/v1/service-accounts/${sa.id}`)).statusCode).toBe(200);
    // The organization's full key may.
    expect((await call(t, o.apiKey, 'DELETE', `/api/v1/service-accounts/${sa.id}`)).statusCode).toBe(204);
    expect((await call(t, strong.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
  });

  it('answers 404 for another organization on every api-keys route', async () => {
    const a = await t.createOrg();
    const b = await t.createOrg();
    const kb = (
      await call(t, b.apiKey, 'POST', '/api/v1/api-keys', { body: { name: 'b', scopes: ['monitors:read'] } })
    ).json();
    for (const [method, url] of [
      ['GET', `/api/v1/api-keys/${kb.id}`],
      ['DELETE', `/api/v1/api-keys/${kb.id}`],
      ['POST', `/api/v1/api-keys/${kb.id}/rotate`],
      ['GET', `/api/v1/api-keys/${kb.id}/usage`],
    ] as const) {
      const res = await call(t, a.apiKey, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(errorCode(res)).toBe('not_found');
    }
    const list = await call(t, a.apiKey, 'GET', '/api/v1/api-keys');
    expect(list.json().data.map((k: { id: string }) => k.id)).not.toContain(kb.id);
    expect((await call(t, kb.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
  });

  it('service accounts own keys with their role; deleting one revokes its keys', async () => {
    const o = await t.createOrg();
    const created = await call(t, o.apiKey, 'POST', '/api/v1/service-accounts', {
      body: { name: 'terraform', role: 'admin' },
    });
    expect(created.statusCode).toBe(201);
    const sa = created.json();
    expect(sa).toMatchObject({
      id: expect.stringMatching(/^sac_/),
      name: 'terraform',
      role: 'admin',
      created_by: o.userId,
    });
    expect((await call(t, o.apiKey, 'GET', `/api/v1/service-accounts/${sa.id}`)).json()).toEqual(sa);
    expect((await call(t, o.apiKey, 'GET', '/api/v1/service-accounts')).json().data).toEqual([sa]);
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'tf', scopes: ['keys:write', 'monitors:read'], service_account_id: sa.id },
      })
    ).json();
    expect(k.service_account_id).toBe(sa.id);
    // The service account's admin role lets its key manage keys.
    expect((await call(t, k.key, 'GET', '/api/v1/api-keys')).statusCode).toBe(200);
    const member = (
      await call(t, o.apiKey, 'POST', '/api/v1/service-accounts', { body: { name: 'ro', role: 'member' } })
    ).json();
    const mk = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'm', scopes: ['monitors:read'], service_account_id: member.id },
      })
    ).json();
    expect((await call(t, mk.key, 'GET', '/api/v1/monitors')).statusCode).toBe(200);
    const other = await t.createOrg();
    expect((await call(t, other.apiKey, 'GET', `/api/v1/service-accounts/${sa.id}`)).statusCode).toBe(404);
    expect((await call(t, other.apiKey, 'DELETE', `/api/v1/service-accounts/${sa.id}`)).statusCode).toBe(404);
    const unknownSa = await call(t, other.apiKey, 'POST', '/api/v1/api-keys', {
      body: { name: 'x', scopes: ['monitors:read'], service_account_id: sa.id },
    });
    expect(unknownSa.statusCode).toBe(422);
    expect(unknownSa.json().error.details[0].field).toBe('service_account_id');
    expect(
      (await call(t, o.apiKey, 'POST', '/api/v1/service-accounts', { body: { name: 'x', role: 'owner' } })).statusCode,
    ).toBe(422);
    expect((await call(t, o.apiKey, 'DELETE', `/api/v1/service-accounts/${sa.id}`)).statusCode).toBe(204);
    expect((await call(t, k.key, 'GET', '/api/v1/monitors')).statusCode).toBe(401);
    expect((await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}`)).json().revoked_at).not.toBeNull();
    expect((await call(t, o.apiKey, 'GET', `/api/v1/service-accounts/${sa.id}`)).statusCode).toBe(404);
  });

  it('usage: buckets per minute by class and status, totals, last_used_at, from/to', async () => {
    const o = await t.createOrg();
    const k = (
      await call(t, o.apiKey, 'POST', '/api/v1/api-keys', {
        body: { name: 'u', scopes: ['monitors:read', 'monitors:delete'] },
      })
    ).json();
    const start = clock.now();
    await call(t, k.key, 'GET', '/api/v1/monitors');
    await call(t, k.key, 'GET', '/api/v1/monitors/mon_nope');
    clock.advance(60_000);
    await call(t, k.key, 'DELETE', '/api/v1/monitors/mon_nope');
    await call(t, k.key, 'POST', '/api/v1/monitors', { body: { target: 'https://a.example.com' } });
    const from = new Date(start - 60_000).toISOString();
    const to = new Date(clock.now() + 60_000).toISOString();
    const res = await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}/usage?from=${from}&to=${to}`);
    expect(res.statusCode).toBe(200);
    const u = res.json();
    expect(u.resolution).toBe('minute');
    expect(u.totals).toEqual({
      requests: 4,
      read: 2,
      write: 1,
      delete: 1,
      status_2xx: 1,
      status_3xx: 0,
      status_4xx: 3,
      status_5xx: 0,
    });
    expect(u.data).toHaveLength(2);
    expect(u.data[0]).toMatchObject({ read: 2, write: 0, delete: 0, status_2xx: 1, status_4xx: 1 });
    expect(u.last_used_at).toBe(new Date(clock.now()).toISOString());
    expect((await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}`)).json().last_used_at).toBe(u.last_used_at);
    const bad = await call(t, o.apiKey, 'GET', `/api/v1/api-keys/${k.id}/usage?from=${to}&to=${from}`);
    expect(bad.statusCode).toBe(422);
  });
});
