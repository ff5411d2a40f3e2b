import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isScope } from '../../src/modules/auth/index.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { call, errorCode } from '../api-access/helpers.ts';

/** Operations anyone may call without a key. */
const PUBLIC = new Set([
  'GET /api/v1/openapi.json',
  // The configuration document's JSON Schema, for editors (like the OpenAPI document).
  'GET /api/v1/config/schema.json',
  'POST /api/v1/heartbeats/{token}',
  'GET /api/v1/heartbeats/{token}',
  'HEAD /api/v1/heartbeats/{token}',
  'POST /api/v1/heartbeats/{token}/{signal}',
  'GET /api/v1/heartbeats/{token}/{signal}',
  'HEAD /api/v1/heartbeats/{token}/{signal}',
  // The organization's ping key in the path is the credential (DECISIONS §20).
  'POST /api/v1/ping/{ping_key}/{slug}',
  'GET /api/v1/ping/{ping_key}/{slug}',
  'HEAD /api/v1/ping/{ping_key}/{slug}',
  'POST /api/v1/ping/{ping_key}/{slug}/{signal}',
  'GET /api/v1/ping/{ping_key}/{slug}/{signal}',
  'HEAD /api/v1/ping/{ping_key}/{slug}/{signal}',
  // A scheduled report's file: the token in the link is the credential (7 days).
  'GET /api/v1/report-files/{id}',
  // Runners authenticate with their own runner token, not an API key.
  'POST /api/v1/runners/claim',
  'POST /api/v1/runners/results',
  'POST /api/v1/runners/heartbeat',
  // People signing in (DECISIONS §14): no key and no session yet.
  'GET /api/v1/auth/setup',
  'POST /api/v1/auth/setup',
  'POST /api/v1/auth/sessions',
  'POST /api/v1/auth/password-reset',
  'POST /api/v1/auth/password-reset/confirm',
  'GET /api/v1/auth/invitations/lookup',
  'POST /api/v1/auth/invitations/accept',
]);

/** Operations about the caller's own browser sessions: a session cookie, never a key. */
const SESSION_ONLY = new Set([
  'GET /api/v1/auth/session',
  'DELETE /api/v1/auth/session',
  'GET /api/v1/auth/sessions',
  'DELETE /api/v1/auth/sessions/{id}',
]);

describe('scopes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('every /api/v1 operation but the public ones declares bearer security with its scope', async () => {
    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { security?: Array<Record<string, string[]>>; 'x-required-scope'?: string }>
      >;
    };
    let checked = 0;
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        if (PUBLIC.has(name)) continue;
        if (SESSION_ONLY.has(name)) {
          if (JSON.stringify(op.security) !== JSON.stringify([{ sessionCookie: [] }])) missing.push(name);
          continue;
        }
        const scope = op.security?.[0]?.bearerAuth?.[0];
        if (!scope || !isScope(scope) || op['x-required-scope'] !== scope) missing.push(name);
        checked += 1;
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
    expect(doc.paths['/api/v1/api-keys']?.post?.security).toEqual([
      { bearerAuth: ['keys:write'] },
      { sessionCookie: [] },
    ]);
  });

  it('insufficient_scope names the scope; monitors:write implies monitors:create', async () => {
    const o = await t.createOrg({ scopes: ['monitors:write'] });
    const create = await call(t, o.apiKey, 'POST', '/api/v1/monitors', { body: { target: 'https://a.example.com' } });
    expect(create.statusCode).toBe(201);
    const read = await call(t, o.apiKey, 'GET', `/api/v1/monitors/${create.json().id}`);
    expect(read.statusCode).toBe(403);
    expect(errorCode(read)).toBe('insufficient_scope');
    expect(read.json().error.message).toContain('monitors:read');
    const del = await call(t, o.apiKey, 'DELETE', `/api/v1/monitors/${create.json().id}`);
    expect(del.json().error.message).toContain('monitors:delete');
  });

  it('plan_upgrade_required comes before the scope check', async () => {
    const o = await t.createOrg({ plan: 'pro', scopes: ['monitors:read'] });
    const res = await call(t, o.apiKey, 'POST', '/api/v1/api-keys', { body: { name: 'x', scopes: ['monitors:read'] } });
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('plan_upgrade_required');
    expect(res.json().error.message).toContain('team');
  });
});
