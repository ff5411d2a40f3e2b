import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

/** The route schema is the one check of a status page body's shape; what it documents is what it enforces. */
describe('status page bodies: one schema', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await t.createOrg();
  });
  afterAll(async () => t.close());

  async function fields(method: string, url: string, body: unknown): Promise<string[]> {
    const res = await call(t, org.apiKey, method, url, { body });
    expect(res.statusCode, res.body).toBe(422);
    return ((res.json() as Json).error.details as Json[]).map((d) => d.field as string).sort();
  }

  it('refuses bodies of the wrong shape with the field named, and stores nothing', async () => {
    expect(await fields('POST', '/api/v1/status-pages', [1])).toEqual(['body']);
    expect(await fields('POST', '/api/v1/status-pages', { slug: 'ok-slug', title: '   ' })).toEqual(['title']);
    expect(await fields('POST', '/api/v1/status-pages', { slug: 'ok-slug', title: 'T', public: 'yes' })).toEqual([
      'public',
    ]);
    expect(await fields('POST', '/api/v1/status-pages', { slug: 'ok-slug', title: 'T', monitor_ids: [1] })).toEqual([
      'monitor_ids[0]',
    ]);
    expect(await fields('POST', '/api/v1/status-pages', { title: 'T' })).toEqual(['slug']);
    const list = await call(t, org.apiKey, 'GET', '/api/v1/status-pages');
    expect((list.json() as Json).data).toEqual([]);
  });

  it('documents the enforced schema (no domain-validated placeholder)', async () => {
    const doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as Json;
    const create = doc.paths['/api/v1/status-pages'].post.requestBody.content['application/json'].schema as Json;
    expect(JSON.stringify(create)).not.toContain('x-domain-validated');
    expect(JSON.stringify(create)).toContain('^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$');
  });
});
