import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { call } from '../api-access/helpers.ts';

describe.each(testDialects())('member invitations (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => t.close());

  it('answers the same for an address of another organization’s user as for an unknown one', async () => {
    const { orgs } = t.tocsin.services;
    // A verified user of another organization, with a name of their own.
    const other = await t.createOrg();
    const known = await orgs.ensureUser({ email: 'someone@elsewhere.example', name: 'Their Own Name' });
    await orgs.addMember(other.organizationId, known.id, 'member');
    expect(await orgs.verifyEmail(await orgs.createEmailVerification(known.id))).not.toBeNull();

    const inviter = await t.createOrg();
    const invite = (email: string) =>
      call(t, inviter.apiKey, 'POST', '/api/v1/auth/organization/members', { body: { email, role: 'member' } });
    const toKnown = await invite('someone@elsewhere.example');
    const toUnknown = await invite('nobody-yet@elsewhere.example');

    expect(toKnown.statusCode).toBe(201);
    expect(toUnknown.statusCode).toBe(201);
    expect(toKnown.json()).toEqual({
      email: 'someone@elsewhere.example',
      name: null,
      role: 'member',
      status: 'invited',
    });
    expect(toUnknown.json()).toEqual({
      email: 'nobody-yet@elsewhere.example',
      name: null,
      role: 'member',
      status: 'invited',
    });
    expect(Object.keys(toKnown.json()).sort()).toEqual(Object.keys(toUnknown.json()).sort());
    expect(toKnown.body).not.toContain(known.id);
    expect(toKnown.body).not.toContain('Their Own Name');
    expect(toKnown.headers['content-type']).toBe(toUnknown.headers['content-type']);
  });
});
