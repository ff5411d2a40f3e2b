/**
 * A down monitor is paused, its target recovers (or not), it is resumed: the next verdict decides (docs/api.md,
 * "Monitor incidents"). Up after success_threshold resolves the open incident with a `recovered` event and
 * `resolved_by: auto`, and the public status page shows no current incident; down keeps the same incident open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startHttpTarget, type RunningTarget } from '../support/targets/index.ts';
import { rows } from './engine.helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

describe.each(testDialects())('pause and resume of a down monitor on %s', (dialect) => {
  let t: TestApp;
  let clock: ManualClock;
  const statusOfPath = new Map<string, number>();
  let target: RunningTarget;

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2026-03-01T10:00:00.000Z'));
    t = await createTestApp({ dialect, clock });
    target = await startHttpTarget((req, res) => {
      const status = statusOfPath.get(req.url ?? '/') ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'unavailable');
    });
  });
  afterAll(async () => {
    await target.close();
    await t.close();
  });

  async function downMonitor(path: string, slug: string) {
    const org = await t.createOrg();
    const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
      const res = await t.tocsin.app.inject(
        payload === undefined
          ? { method, url, headers: bearer(org.apiKey) }
          : { method, url, headers: bearer(org.apiKey), payload },
      );
      return { status: res.statusCode, body: res.json() as Json };
    };
    statusOfPath.set(path, 503);
    const created = await call('POST', '/api/v1/monitors', {
      name: `Shop ${path}`,
      target: `${target.url.replace(/\/$/, '')}${path}`,
      interval_seconds: 30,
      config: { failure_threshold: 2, success_threshold: 2 },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await call('POST', '/api/v1/status-pages', { slug, title: 'Shop', monitor_ids: [id] })).status).toBe(201);
    await rounds(3);
    expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('down');
    const incidents = (await call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data as Json[];
    expect(incidents).toHaveLength(1);
    expect(incidents[0]!.status).toBe('opened');
    const page = async () => (await t.tocsin.app.inject({ method: 'GET', url: `/status/${slug}.json` })).json() as Json;
    expect((await page()).incidents).toHaveLength(1);
    return { id, incidentId: incidents[0]!.id as string, call, page };
  }

  /** Scheduler rounds, one interval apart. */
  async function rounds(n: number) {
    for (let i = 0; i < n; i++) {
      clock.advance(30_000);
      await t.tocsin.services.checks.localRunner.runOnce();
    }
  }

  it('the target recovers while paused: after the resume, success_threshold up checks resolve the incident (recovered, auto) and the page shows no current incident', async () => {
    const { id, incidentId, call, page } = await downMonitor('/recovers', `recovers-${dialect}`);
    expect((await call('POST', `/api/v1/monitors/${id}/pause`)).status).toBe(200);
    statusOfPath.set('/recovers', 200);
    await rounds(2); // paused: nothing runs
    expect((await call('POST', `/api/v1/monitors/${id}/resume`)).status).toBe(200);

    clock.advance(5_000); // first check after a resume is due within 5 s
    await t.tocsin.services.checks.localRunner.runOnce();
    expect((await call('GET', `/api/v1/incidents/${incidentId}`)).body.status).toBe('opened'); // 1 < success_threshold
    await rounds(1);
    expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('up');

    const incident = (await call('GET', `/api/v1/incidents/${incidentId}`)).body;
    expect(incident).toMatchObject({ status: 'resolved', resolved_by: 'auto' });
    expect((incident.timeline as Json[]).map((e) => e.type)).toContain('monitor_up');
    const events = await rows<{ type: string }>(
      t.tocsin.database,
      'select type from domain_event where monitor_id = ? order by occurred_at, id',
      [id],
    );
    expect(events.map((e) => e.type).filter((type) => type === 'recovered')).toHaveLength(1);
    const view = await page();
    expect(view.incidents).toEqual([]);
    expect(view.status).toBe('operational');
  });

  it('the target is still failing: after the resume the monitor is down again and the same incident stays open', async () => {
    const { id, incidentId, call, page } = await downMonitor('/still-failing', `still-failing-${dialect}`);
    expect((await call('POST', `/api/v1/monitors/${id}/pause`)).status).toBe(200);
    expect((await call('POST', `/api/v1/monitors/${id}/resume`)).status).toBe(200);
    clock.advance(5_000);
    await t.tocsin.services.checks.localRunner.runOnce();
    await rounds(2);
    expect((await call('GET', `/api/v1/monitors/${id}`)).body.status).toBe('down');
    const incidents = (await call('GET', `/api/v1/incidents?monitor_id=${id}`)).body.data as Json[];
    expect(incidents.map((i) => [i.id, i.status])).toEqual([[incidentId, 'opened']]);
    expect((await page()).incidents).toHaveLength(1);
  });
});
