/**
 * The scheduled report of a custom report is seen by those who see the report: a private report's schedule is its
 * owner's alone (404 to other members and to admins: read, list, PATCH, run, runs, DELETE), on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/auth/index.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { api, WEBHOOKS } from '../alerting/helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

const BASE = '/api/v1/scheduled-reports';

describe.each(testDialects())('scheduled reports of private custom reports (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let adminKey: string;
  let ownerKey: string;
  let otherMemberKey: string;
  let adminDestination: string;
  const clock = new ManualClock('2026-11-24T10:00:00.000Z');

  async function person(role: 'admin' | 'member'): Promise<string> {
    const { orgs, auth } = t.tocsin.services;
    const user = await orgs.ensureUser({ email: `${role}-${Math.random().toString(36).slice(2)}@example.com` });
    await orgs.addMember(org.organizationId, user.id, role);
    const key = await auth.issueKey({
      organizationId: org.organizationId,
      name: role,
      scopes: [...SCOPES],
      environments: ['production'],
      userId: user.id,
      createdBy: user.id,
      rateLimits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
    });
    return key.key;
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect, clock });
    org = await t.createOrg();
    adminKey = await person('admin');
    ownerKey = await person('member');
    otherMemberKey = await person('member');
    const destination = await api(t, org.apiKey, 'POST', WEBHOOKS, {
      type: 'email',
      name: 'reports',
      config: { address: 'reports@example.com' },
    });
    adminDestination = destination.body.id as string;
  });
  afterAll(() => t.close());

  async function customReport(key: string, visibility: 'private' | 'organization'): Promise<string> {
    const res = await api(t, key, 'POST', '/api/v1/custom-reports', {
      name: `${visibility} report`,
      period: 'last_7_days',
      widgets: [{ kind: 'availability', title: 'Uptime' }],
      visibility,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  async function schedule(key: string, customReportId: string): Promise<string> {
    const res = await api(t, key, 'POST', BASE, {
      report_type: 'custom',
      custom_report_id: customReportId,
      frequency: 'daily',
      time_of_day: '08:00',
      timezone: 'UTC',
      destination_ids: [adminDestination],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  it('answers 404 to every verb of anybody but the owner, admins included, and changes nothing', async () => {
    const report = await customReport(ownerKey, 'private');
    const id = await schedule(ownerKey, report);
    const before = (await api(t, ownerKey, 'GET', `${BASE}/${id}`)).body as Json;
    for (const [who, key] of [
      ['admin', adminKey],
      ['other member', otherMemberKey],
      ['organization owner', org.apiKey],
    ] as const) {
      for (const [method, url, body] of [
        ['GET', `${BASE}/${id}`, undefined],
        ['PATCH', `${BASE}/${id}`, { destination_ids: [adminDestination], time_of_day: '09:00' }],
        ['POST', `${BASE}/${id}/run`, undefined],
        ['GET', `${BASE}/${id}/runs`, undefined],
        ['DELETE', `${BASE}/${id}`, undefined],
      ] as const) {
        const res = await api(t, key, method, url, body);
        expect(res.status, `${who} ${method} ${url}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      const listed = (await api(t, key, 'GET', `${BASE}?limit=100`)).body.data as Json[];
      expect(listed.map((s) => s.id)).not.toContain(id);
    }
    const after = await api(t, ownerKey, 'GET', `${BASE}/${id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    expect(((await api(t, ownerKey, 'GET', `${BASE}?limit=100`)).body.data as Json[]).map((s) => s.id)).toContain(id);
    expect((await api(t, ownerKey, 'POST', `${BASE}/${id}/run`)).status).toBe(202);
  });

  it('shows the schedule of an organization report to every member, and hides it when the report turns private', async () => {
    const report = await customReport(ownerKey, 'organization');
    const id = await schedule(ownerKey, report);
    expect((await api(t, adminKey, 'GET', `${BASE}/${id}`)).status).toBe(200);
    expect((await api(t, otherMemberKey, 'GET', `${BASE}/${id}`)).status).toBe(200);
    expect(
      (await api(t, ownerKey, 'PATCH', `/api/v1/custom-reports/${report}`, { visibility: 'private' })).status,
    ).toBe(200);
    expect((await api(t, adminKey, 'GET', `${BASE}/${id}`)).status).toBe(404);
    expect((await api(t, otherMemberKey, 'PATCH', `${BASE}/${id}`, { enabled: false })).status).toBe(404);
    // Once the report is gone, its schedule is visible again (it can be deleted; its runs fail).
    expect((await api(t, ownerKey, 'DELETE', `/api/v1/custom-reports/${report}`)).status).toBe(204);
    expect((await api(t, adminKey, 'DELETE', `${BASE}/${id}`)).status).toBe(204);
  });
});
