import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;

/** Issue 10 item 2, status pages: a key limited to staging never sees or changes production monitors through them. */
describe.each(testDialects())('status pages and environments (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let stagingKey: string;
  let prod: string;
  let prod2: string;
  let staging: string;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    org = await t.createOrg();
    const issued = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'staging only',
      scopes: [...SCOPES],
      environments: ['staging'],
      userId: org.userId,
      createdBy: org.userId,
    });
    stagingKey = issued.key;
    const make = async (environment: string) =>
      (await json(org.apiKey, 'POST', '/api/v1/monitors', { target: 'https://example.com', environment })).body.id;
    prod = await make('production');
    prod2 = await make('production');
    staging = await make('staging');
  });
  afterAll(async () => t.close());

  async function json(key: string, method: string, url: string, body?: unknown) {
    const res = await call(t, key, method, url, body === undefined ? {} : { body });
    return { status: res.statusCode, body: (res.body === '' ? undefined : res.json()) as Json };
  }
  async function page(monitorIds: string[]): Promise<string> {
    const res = await json(org.apiKey, 'POST', '/api/v1/status-pages', {
      slug: `env-${dialect}-${++n}`,
      title: 'Env',
      monitor_ids: monitorIds,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  it('reads and lists leave other environments’ monitors out', async () => {
    const id = await page([prod, staging]);
    expect((await json(stagingKey, 'GET', `/api/v1/status-pages/${id}`)).body.monitor_ids).toEqual([staging]);
    const listed = (await json(stagingKey, 'GET', '/api/v1/status-pages?limit=200')).body.data as Json[];
    expect(listed.find((p) => p.id === id)!.monitor_ids).toEqual([staging]);
    expect((await json(org.apiKey, 'GET', `/api/v1/status-pages/${id}`)).body.monitor_ids).toEqual([prod, staging]);
  });

  it('a write naming a production monitor is 422 on that field and changes nothing', async () => {
    const id = await page([prod, staging]);
    const res = await json(stagingKey, 'PATCH', `/api/v1/status-pages/${id}`, { monitor_ids: [staging, prod2] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'monitor_ids[1]', issue: expect.stringContaining(prod2) }]);
    const created = await json(stagingKey, 'POST', '/api/v1/status-pages', {
      slug: `env-${dialect}-${++n}`,
      title: 'x',
      monitor_ids: [prod],
    });
    expect(created.status).toBe(422);
    expect(created.body.error.details).toEqual([{ field: 'monitor_ids[0]', issue: expect.stringContaining(prod) }]);
    expect((await json(org.apiKey, 'GET', `/api/v1/status-pages/${id}`)).body.monitor_ids).toEqual([prod, staging]);
  });

  it('a write leaves other environments’ monitors on the page', async () => {
    const id = await page([prod, staging]);
    const emptied = await json(stagingKey, 'PATCH', `/api/v1/status-pages/${id}`, { monitor_ids: [] });
    expect(emptied.status).toBe(200);
    expect(emptied.body.monitor_ids).toEqual([]);
    expect((await json(org.apiKey, 'GET', `/api/v1/status-pages/${id}`)).body.monitor_ids).toEqual([prod]);
    const retitled = await json(stagingKey, 'PATCH', `/api/v1/status-pages/${id}`, { title: 'New' });
    expect(retitled.status).toBe(404);
  });

  it('a page made only of production monitors is 404 to the key (read, update, delete) and absent from its list', async () => {
    const id = await page([prod, prod2]);
    expect((await json(stagingKey, 'GET', `/api/v1/status-pages/${id}`)).status).toBe(404);
    expect((await json(stagingKey, 'PATCH', `/api/v1/status-pages/${id}`, { monitor_ids: [] })).status).toBe(404);
    expect((await json(stagingKey, 'DELETE', `/api/v1/status-pages/${id}`)).status).toBe(404);
    const listed = (await json(stagingKey, 'GET', '/api/v1/status-pages?limit=200')).body.data as Json[];
    expect(listed.map((p) => p.id)).not.toContain(id);
    expect((await json(org.apiKey, 'GET', `/api/v1/status-pages/${id}`)).body.monitor_ids).toEqual([prod, prod2]);
  });

  it('a page without monitors is everyone’s', async () => {
    const id = await page([]);
    expect((await json(stagingKey, 'GET', `/api/v1/status-pages/${id}`)).status).toBe(200);
  });
});
