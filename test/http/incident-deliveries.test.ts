import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, WEBHOOKS } from '../alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';

interface Delivery {
  id: string;
  destination: { id: string; name: string | null; type: string | null } | null;
  event: { id: string; type: string; occurred_at: string };
  status: string;
  outcome: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
}

describe.each(testDialects())('GET /incidents/{id}/deliveries (%s)', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  let org: TestOrg;
  const targets: RunningTarget[] = [];
  const answering = async (status: number) => {
    const target = await startHttpTarget((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('x');
    });
    targets.push(target);
    return target.url;
  };
  let incidentId = '';
  const ids = { ok: '', retry: '', gone: '' };

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-11-24T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
    org = await t.createOrg();
    const create = async (name: string, url: string) => {
      const res = await api(t, org.apiKey, 'POST', WEBHOOKS, { type: 'generic_webhook', name, config: { url } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    ids.ok = await create('Receiver', await answering(200));
    ids.retry = await create('Flaky', await answering(503));
    ids.gone = await create('Gone', await answering(410));
    const monitor = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
      name: 'Checkout',
      target: await answering(500),
      interval_seconds: 30,
      config: { failure_threshold: 1, alert_destination_ids: [ids.ok, ids.retry, ids.gone] },
    });
    expect(monitor.status, JSON.stringify(monitor.body)).toBe(201);
    clock.advance(30_000);
    await t.tocsin.services.checks.localRunner.runOnce();
    await t.tocsin.services.alerting.pipeline.runUntilIdle();
    const list = await api(t, org.apiKey, 'GET', `/api/v1/incidents?monitor_id=${monitor.body.id as string}`);
    incidentId = list.body.data[0].id as string;
  });
  afterAll(async () => {
    await t.close();
    for (const target of targets) await target.close();
  });

  it('lists each destination with the event it carried and its outcome: delivered, retrying, failed', async () => {
    const res = await api(t, org.apiKey, 'GET', `/api/v1/incidents/${incidentId}/deliveries`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.data as Delivery[];
    const byDestination = new Map(rows.map((d) => [d.destination!.id, d]));
    expect(rows.every((d) => d.event.type === 'down')).toBe(true);
    expect(byDestination.get(ids.ok)).toMatchObject({
      destination: { id: ids.ok, name: 'Receiver', type: 'generic_webhook' },
      status: 'delivered',
      outcome: 'delivered',
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
      delivered_at: expect.any(String),
    });
    expect(byDestination.get(ids.retry)).toMatchObject({
      outcome: 'retrying',
      status: 'pending',
      attempts: 1,
      last_error: expect.stringContaining('503'),
      next_attempt_at: expect.any(String),
      delivered_at: null,
    });
    expect(byDestination.get(ids.gone)).toMatchObject({
      outcome: 'failed',
      status: 'failed',
      attempts: 1,
      last_error: expect.stringContaining('410'),
      next_attempt_at: null,
    });
    expect(rows).toHaveLength(3);
  });

  it('pages by cursor without gaps or repeats, and refuses a cursor it did not make', async () => {
    const all = (await api(t, org.apiKey, 'GET', `/api/v1/incidents/${incidentId}/deliveries`)).body.data as Delivery[];
    const first = await api(t, org.apiKey, 'GET', `/api/v1/incidents/${incidentId}/deliveries?limit=2`);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await api(
      t,
      org.apiKey,
      'GET',
      `/api/v1/incidents/${incidentId}/deliveries?limit=2&cursor=${first.body.next_cursor as string}`,
    );
    expect(second.body.next_cursor).toBeNull();
    expect([...first.body.data, ...second.body.data].map((d: Delivery) => d.id)).toEqual(all.map((d) => d.id));
    const bad = await api(t, org.apiKey, 'GET', `/api/v1/incidents/${incidentId}/deliveries?cursor=nope`);
    expect(bad.status).toBe(422);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
  });

  it('names destinations only to a key that may read them (destinations:read)', async () => {
    const { key } = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'incidents only',
      scopes: ['incidents:read'],
      environments: ['production'],
      userId: org.userId,
    });
    const res = await api(t, key, 'GET', `/api/v1/incidents/${incidentId}/deliveries`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.data as Delivery[];
    expect(rows.map((d) => d.destination)).toEqual(
      expect.arrayContaining([{ id: ids.ok, name: null, type: 'generic_webhook' }]),
    );
    expect(rows.every((d) => d.destination!.name === null)).toBe(true);
    expect(rows.map((d) => d.outcome).sort()).toEqual(['delivered', 'failed', 'retrying']);
  });

  it("does not name a destination that also serves an environment outside the key's", async () => {
    const staging = await api(t, org.apiKey, 'POST', '/api/v1/monitors', {
      name: 'Staging checkout',
      target: 'https://staging.example.com/',
      interval_seconds: 30,
      environment: 'staging',
      config: { alert_destination_ids: [ids.retry] },
    });
    expect(staging.status, JSON.stringify(staging.body)).toBe(201);
    const { key } = await t.tocsin.services.auth.issueKey({
      organizationId: org.organizationId,
      name: 'production only',
      scopes: ['incidents:read', 'destinations:read'],
      environments: ['production'],
      userId: org.userId,
    });
    const rows = (await api(t, key, 'GET', `/api/v1/incidents/${incidentId}/deliveries`)).body.data as Delivery[];
    const names = Object.fromEntries(rows.map((d) => [d.destination!.id, d.destination!.name]));
    expect(names).toEqual({ [ids.ok]: 'Receiver', [ids.retry]: null, [ids.gone]: 'Gone' });
    expect((await api(t, key, 'GET', `${WEBHOOKS}/${ids.retry}`)).status).toBe(404);
    expect((await api(t, org.apiKey, 'DELETE', `/api/v1/monitors/${staging.body.id as string}`)).status).toBe(204);
  });

  it('is 404 for another organization and for an unknown incident', async () => {
    const stranger = await t.createOrg();
    const other = await api(t, stranger.apiKey, 'GET', `/api/v1/incidents/${incidentId}/deliveries`);
    expect(other.status).toBe(404);
    const unknown = await api(t, org.apiKey, 'GET', `/api/v1/incidents/inc_01m80000000000000000000000/deliveries`);
    expect(unknown.status).toBe(404);
  });
});
