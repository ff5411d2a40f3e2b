import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../alerting/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { createPerson, inSession, signIn } from '../support/sessions.ts';

const ORG = '/api/v1/auth/organization';
const PASSWORD = 'settings password';

describe.each(testDialects())('organization default region (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;

  beforeAll(async () => {
    t = await createTestApp({ dialect, configFile: { regions: ['local', 'eu-west', 'us-east'] } });
    org = await t.createOrg();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is read and changed by owners and admins; new monitors without region_codes run there', async () => {
    const before = await api(t, org.apiKey, 'GET', ORG);
    expect(before.body.default_region).toBe('local');
    const changed = await api(t, org.apiKey, 'PATCH', ORG, { default_region: 'eu-west' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ default_region: 'eu-west', email_alerts_enabled: true });
    expect((await api(t, org.apiKey, 'GET', ORG)).body.default_region).toBe('eu-west');
    const monitor = await api(t, org.apiKey, 'POST', '/api/v1/monitors', { target: 'https://a.example.com' });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    expect(monitor.body.region_codes).toEqual(['eu-west']);
    // Both settings in one change.
    const both = await api(t, org.apiKey, 'PATCH', ORG, { default_region: 'us-east', email_alerts_enabled: false });
    expect(both.body).toMatchObject({ default_region: 'us-east', email_alerts_enabled: false });
  });

  it('refuses a region that is not configured (on its field), and changes nothing', async () => {
    const before = (await api(t, org.apiKey, 'GET', ORG)).body;
    for (const bad of ['mars-1', '', 42]) {
      const res = await api(t, org.apiKey, 'PATCH', ORG, {
        default_region: bad,
        email_alerts_enabled: !before.email_alerts_enabled,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'default_region' })]);
    }
    expect((await api(t, org.apiKey, 'GET', ORG)).body).toEqual(before);
  });

  it('is refused to a member', async () => {
    await createPerson(t, org.organizationId, 'member', `member-${dialect}@example.com`, PASSWORD);
    const member = await signIn(t, `member-${dialect}@example.com`, PASSWORD);
    const res = await inSession(t, member, 'PATCH', ORG, { body: { default_region: 'local' } });
    expect(res.statusCode).toBe(403);
    expect((await api(t, org.apiKey, 'GET', ORG)).body.default_region).not.toBe('local');
  });
});
