import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertLinks } from '../../src/modules/alerting/index.ts';
import { validateAssertion } from '../../src/modules/checks/index.ts';
import { MonitorsService, createMonitorTargetGuard, type MonitorAlertLinks } from '../../src/modules/monitors/index.ts';
import { Plans } from '../../src/modules/orgs/index.ts';
import { systemResolver } from '../../src/platform/net/index.ts';
import { call } from '../api-access/helpers.ts';
import { createTestApp, type TestApp, type TestOrg } from '../support/app.ts';
import { contextFor } from '../support/context.ts';
import { testDialects } from '../support/databases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are inspected loosely in tests
type Json = Record<string, any>;
const WEBHOOKS = '/api/v1/auth/organization/webhooks';

/** `config.alert_destination_ids` is a view of the alerting module's link rows, never stored in the monitor's config. */
describe.each(testDialects())('monitor ↔ destination links through the port (%s)', (dialect) => {
  let t: TestApp;
  let org: TestOrg;
  let d1: string;
  let d2: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    org = await t.createOrg();
    const destination = async (address: string) =>
      (await json('POST', WEBHOOKS, { type: 'email', config: { address } })).body.id as string;
    d1 = await destination('a@example.com');
    d2 = await destination('b@example.com');
  });
  afterAll(async () => t.close());

  async function json(method: string, url: string, body?: unknown) {
    const res = await call(t, org.apiKey, method, url, body === undefined ? {} : { body });
    return { status: res.statusCode, body: (res.body === '' ? undefined : res.json()) as Json };
  }
  async function storedConfig(id: string): Promise<Record<string, unknown>> {
    const { rows } = await sql<{ config: string }>`select config from monitor where id = ${id}`.execute(
      t.tocsin.database.tables<unknown>(),
    );
    return JSON.parse(rows[0]!.config) as Record<string, unknown>;
  }

  it('keeps the links through updates, pause and resume, and never stores them in the config', async () => {
    const created = await json('POST', '/api/v1/monitors', {
      target: 'https://example.com',
      config: { alert_destination_ids: [d1, d2] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(await storedConfig(id)).not.toHaveProperty('alert_destination_ids');
    expect((await json('GET', `/api/v1/monitors/${id}`)).body.config.alert_destination_ids.sort()).toEqual(
      [d1, d2].sort(),
    );
    await json('PATCH', `/api/v1/monitors/${id}`, { name: 'renamed' });
    await json('POST', `/api/v1/monitors/${id}/pause`);
    await json('POST', `/api/v1/monitors/${id}/resume`);
    expect((await json('GET', `/api/v1/monitors/${id}`)).body.config.alert_destination_ids.sort()).toEqual(
      [d1, d2].sort(),
    );
    const patched = await json('PATCH', `/api/v1/monitors/${id}`, { config: { alert_destination_ids: [d2] } });
    expect(patched.body.config.alert_destination_ids).toEqual([d2]);
    const listed = (await json('GET', '/api/v1/monitors?limit=200')).body.data as Json[];
    expect(listed.find((m) => m.id === id)!.config.alert_destination_ids).toEqual([d2]);
    expect(await storedConfig(id)).not.toHaveProperty('alert_destination_ids');
  });

  it('refuses an unknown destination naming its index, and changes nothing', async () => {
    const id = (await json('POST', '/api/v1/monitors', { target: 'https://example.com' })).body.id as string;
    const res = await json('PATCH', `/api/v1/monitors/${id}`, {
      config: { alert_destination_ids: [d1, 'dst_01m80c64tfdbtrcmt3t76vgq8j'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: 'config.alert_destination_ids[1]', issue: expect.stringContaining('does not exist') },
    ]);
    expect((await json('GET', `/api/v1/monitors/${id}`)).body.config.alert_destination_ids).toEqual([]);
  });

  it('reads one monitor with its links in one statement: destination id order, as the list, within the key environments', async () => {
    const created = await json('POST', '/api/v1/monitors', {
      target: 'https://order.example.com',
      environment: 'staging',
      config: { alert_destination_ids: [d2, d1] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const read = (await json('GET', `/api/v1/monitors/${id}`)).body;
    expect(read.config.alert_destination_ids).toEqual([d1, d2].sort());
    const listed = (await json('GET', '/api/v1/monitors?limit=200')).body.data as Json[];
    expect(listed.find((m) => m.id === id)!.config.alert_destination_ids).toEqual(read.config.alert_destination_ids);
    const keyFor = async (environments: string[]) =>
      (
        await t.tocsin.services.auth.issueKey({
          organizationId: org.organizationId,
          name: environments.join(' '),
          scopes: ['monitors:read'],
          environments,
          userId: org.userId,
        })
      ).key;
    // Each environment count is its own compiled shape: none may answer with another's values.
    const prodOnly = await keyFor(['production']);
    const stagingOnly = await keyFor(['staging']);
    expect((await call(t, prodOnly, 'GET', `/api/v1/monitors/${id}`)).statusCode).toBe(404);
    const seen = await call(t, stagingOnly, 'GET', `/api/v1/monitors/${id}`);
    expect(seen.statusCode).toBe(200);
    expect((seen.json() as Json).config.alert_destination_ids).toEqual(read.config.alert_destination_ids);
    const other = await t.createOrg();
    expect((await call(t, other.apiKey, 'GET', `/api/v1/monitors/${id}`)).statusCode).toBe(404);
    const bare = (await json('POST', '/api/v1/monitors', { target: 'https://bare.example.com' })).body.id as string;
    expect((await json('GET', `/api/v1/monitors/${bare}`)).body.config.alert_destination_ids).toEqual([]);
  });

  it('reads the links of a whole page in one call', async () => {
    const counted: string[][] = [];
    const links = new AlertLinks(t.clock);
    const counting: MonitorAlertLinks = {
      destinationIdsOf: (db, organizationId, ids) => {
        counted.push([...ids]);
        return links.destinationIdsOf(db, organizationId, ids);
      },
      destinationIdsOfMonitorRow: (dialect) => links.destinationIdsOfMonitorRow(dialect),
      replaceForMonitor: (tx, o, m, ids) => links.replaceForMonitor(tx, o, m, ids),
      missingDestinationIds: (db, o, ids) => links.missingDestinationIds(db, o, ids),
    };
    const monitors = new MonitorsService({
      database: t.tocsin.database,
      clock: t.clock,
      plans: new Plans(t.config.plans),
      regions: t.config.regions,
      publicUrl: t.config.publicUrl,
      defaultRegionOf: async () => t.config.defaultRegion,
      validateAssertion,
      alertLinks: counting,
      lockOrganization: (tx, organizationId) => t.tocsin.services.orgs.lockOrganization(tx, organizationId),
      targetGuard: createMonitorTargetGuard({ allowPrivateTargets: true, resolver: systemResolver }),
    });
    const actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
    // A page of several monitors, whatever ran before.
    for (const n of [1, 2]) {
      await t.tocsin.services.monitors.create(contextFor(t, actor), { target: `https://page${n}.example.com/` });
    }
    const page = await monitors.list(contextFor(t, actor), {}, { limit: 50 });
    expect(page.data.length).toBeGreaterThan(1);
    expect(counted).toEqual([page.data.map((m) => m.id)]);
  });
});
