import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { bearer, createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from responses
type Json = Record<string, any>;

describe.each(testDialects())('incident timeline: people by name (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let adaKey = '';
  let adaId = '';

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    org = await t.createOrg();
    const { orgs, auth } = t.tocsin.services;
    const ada = await orgs.ensureUser({ email: `ada-${dialect}@example.com`, name: 'Ada Lovelace' });
    adaId = ada.id;
    await orgs.addMember(org.organizationId, ada.id, 'admin');
    adaKey = (
      await auth.issueKey({
        organizationId: org.organizationId,
        name: 'ada',
        scopes: [...SCOPES],
        environments: ['production', 'staging', 'development'],
        userId: ada.id,
        createdBy: ada.id,
      })
    ).key;
  });
  afterAll(() => t.close());

  const call = async (key: string, method: 'GET' | 'POST', url: string, payload?: Json) => {
    const res = await t.tocsin.app.inject({ method, url, headers: bearer(key), ...(payload && { payload }) });
    return { status: res.statusCode, body: res.json() as Json };
  };

  it('names who acknowledged and resolved (name, else email) beside their ids', async () => {
    const opened = await call(org.apiKey, 'POST', '/api/v1/incidents', { title: 'Checkout slow' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const id = opened.body.id as string;
    expect((await call(adaKey, 'POST', `/api/v1/incidents/${id}/acknowledge`)).status).toBe(200);
    expect((await call(org.apiKey, 'POST', `/api/v1/incidents/${id}/resolve`)).status).toBe(200);
    const got = await call(org.apiKey, 'GET', `/api/v1/incidents/${id}`);
    const byType = new Map((got.body.timeline as Json[]).map((e) => [e.type, e]));
    expect(byType.get('acknowledged')).toMatchObject({ actor: adaId, actor_name: 'Ada Lovelace' });
    const owner = await t.tocsin.services.orgs.findUser(org.userId);
    expect(byType.get('resolved')).toMatchObject({ actor: org.userId, actor_name: owner!.email });
  });
});
