import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTocsin, type Tocsin } from '../../src/main.ts';
import type { CheckResult, Observation } from '../../src/modules/checks/index.ts';
import { IncidentRemindersRole } from '../../src/modules/incidents/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, LogCapture, ManualClock, type TestApp, type TestOrg } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/index.ts';
import { WEBHOOKS } from '../alerting/helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies

const MINUTE = 60_000;

function observation(status: 'up' | 'down', at: number): Observation {
  return {
    status,
    started_at: at,
    duration_ms: 12,
    timings: { dns_ms: 1, connect_ms: 2, tls_ms: 3, ttfb_ms: 5, download_ms: 1, total_ms: 12 },
    http_status: status === 'up' ? 200 : 503,
    assertions: [],
    error: status === 'up' ? null : { code: 'assertion_failed', message: 'HTTP 503 (expected 200)' },
  };
}

/**
 * DECISIONS §17 through the real check engine, incidents module, outbox and alert pipeline, to real local HTTP
 * receivers: the verdicts come from results fed to `applyResults` as a runner would report them.
 */
for (const dialect of testDialects()) {
  describe(`monitor dependencies (${dialect})`, () => {
    let t: TestApp;
    /** The app in use: a restart replaces it (same database). */
    let app: Tocsin;
    let restarted: Tocsin | null = null;
    let org: TestOrg;
    let receivers: WebhookReceiver[];
    let clock: ManualClock;

    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-06-01T08:00:00.000Z'));
      receivers = [
        await startWebhookReceiver({ secret: 'unused', now: () => clock.now() }),
        await startWebhookReceiver({ secret: 'unused', now: () => clock.now() }),
      ];
      t = await createTestApp({ dialect, clock });
      app = t.tocsin;
    });
    beforeEach(async () => {
      org = await t.createOrg();
      for (const r of receivers) r.reset();
    });
    afterAll(async () => {
      if (restarted) {
        await restarted.close();
        await t.db.drop();
      } else await t.close();
      for (const r of receivers) await r.close();
    });

    async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
      const res = await app.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${org.apiKey}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: (res.body ? res.json() : null) as Json };
    }

    async function destinations(): Promise<string[]> {
      const ids: string[] = [];
      for (const [i, r] of receivers.entries()) {
        const res = await call('POST', WEBHOOKS, {
          type: 'generic_webhook',
          name: `Hook ${i}`,
          config: { url: r.webhookUrl },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ids.push(res.body.id as string);
      }
      return ids;
    }

    async function monitor(name: string, destinationIds: string[], dependsOn?: string[]): Promise<string> {
      clock.advance(1);
      const res = await call('POST', '/api/v1/monitors', {
        name,
        target: `https://${name.toLowerCase().replace(/[^a-z0-9]/g, '-')}.example.com/health`,
        interval_seconds: 60,
        config: {
          alert_destination_ids: destinationIds,
          failure_threshold: 2,
          ...(dependsOn && { depends_on: dependsOn }),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    }

    /** One batch: each monitor's result `status`, the first at `at`, the next a millisecond later and so on. */
    async function report(ids: readonly string[], status: 'up' | 'down', at: number): Promise<void> {
      const results: CheckResult[] = ids.map((monitorId, i) => ({
        monitorId,
        regionCode: 'local',
        dueAt: at + i,
        observation: observation(status, at + i),
      }));
      clock.set(Math.max(clock.now(), at + ids.length));
      await app.services.checks.engine.applyResults('test', results);
      await app.services.alerting.pipeline.runUntilIdle();
    }

    /** One pass of the role that sends held alerts whose release is due (the reminders role), at `at`. */
    async function tick(at: number): Promise<void> {
      clock.set(at);
      const logger = createLogger({ level: 'warn', pretty: false, destination: new LogCapture() });
      const { incidents, monitors } = app.services;
      await new IncidentRemindersRole({ incidents, monitors, clock, logger }).tick();
      await app.services.alerting.pipeline.runUntilIdle();
    }

    /** What a receiver was sent, as "event monitor-id". */
    function sent(r: WebhookReceiver): string[] {
      return r.requests.map((q) => {
        const body = q.json as { event: string; monitor?: { id: string } };
        return `${body.event} ${body.monitor?.id ?? '-'}`;
      });
    }

    async function outboxTypes(monitorId: string): Promise<string[]> {
      const events = await app.services.events.readAfter(0, 100_000);
      return events.filter((e) => e.monitorId === monitorId && e.type !== 'monitor_status_changed').map((e) => e.type);
    }

    it("a router with 50 dependent monitors going down together delivers exactly one down (the router's) per destination", async () => {
      const dst = await destinations();
      const router = await monitor('Router', dst);
      const children: string[] = [];
      for (let i = 0; i < 50; i++) children.push(await monitor(`Service ${i}`, dst, [router]));
      const all = [router, ...children];
      const at = clock.now();
      await report(all, 'up', at);
      // The router's outage: every monitor fails twice (failure_threshold 2), one batch per round, the router's
      // check first in each.
      await report(all, 'down', at + MINUTE);
      await report(all, 'down', at + 2 * MINUTE);

      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`]);
      const list = await call('GET', '/api/v1/monitors?limit=100');
      const byId = new Map((list.body.data as Json[]).map((m) => [m.id as string, m]));
      expect(byId.get(router)).toMatchObject({ status: 'down' });
      expect(byId.get(router)!.blocked_by).toBeUndefined();
      for (const c of children) expect(byId.get(c)).toMatchObject({ status: 'down', blocked_by: [router] });

      // Each child has its incident, held: recorded with the parent that held it, nothing in the outbox for it.
      const routerIncident = (await call('GET', `/api/v1/incidents?monitor_id=${router}`)).body.data[0];
      const childIncident = (await call('GET', `/api/v1/incidents?monitor_id=${children[7]}`)).body.data[0];
      expect(childIncident).toMatchObject({
        status: 'opened',
        blocked_by: [router],
        suppressed_by: routerIncident.id,
        alert_released_at: null,
      });
      expect(routerIncident.blocked_by).toBeUndefined();
      const detail = await call('GET', `/api/v1/incidents/${childIncident.id}`);
      expect(detail.body.timeline.map((e: Json) => e.type)).toEqual(['opened', 'alert_held']);
      expect(detail.body.timeline[1].message).toBe('Alert held: Router is down.');
      for (const c of children) expect(await outboxTypes(c)).toEqual([]);

      // The router and every child recover together: one `recovered` (the router's), nothing for the children, not
      // even once their release would have been due.
      await report(all, 'up', at + 3 * MINUTE);
      await tick(at + 10 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`, `recovered ${router}`]);
      for (const c of children) expect(await outboxTypes(c)).toEqual([]);
      const resolved = await call('GET', `/api/v1/incidents/${childIncident.id}`);
      expect(resolved.body).toMatchObject({ status: 'resolved', alert_released_at: null });
    });

    it('the router checked after its 50 children in the same batch still delivers exactly one down (its own) per destination', async () => {
      const dst = await destinations();
      const router = await monitor('Core router', dst);
      const children: string[] = [];
      for (let i = 0; i < 50; i++) children.push(await monitor(`Backend ${i}`, dst, [router]));
      // Every child's check started before the router's in each batch: the engine sorts a batch by start time, so the
      // children's verdicts come first unless the decision waits for the router's.
      const childrenFirst = [...children, router];
      const at = clock.now();
      await report(childrenFirst, 'up', at);
      await report(childrenFirst, 'down', at + MINUTE);
      await report(childrenFirst, 'down', at + 2 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`]);
      for (const c of children) expect(await outboxTypes(c)).toEqual([]);
      const routerIncident = (await call('GET', `/api/v1/incidents?monitor_id=${router}`)).body.data[0];
      const childIncident = (await call('GET', `/api/v1/incidents?monitor_id=${children[0]}`)).body.data[0];
      expect(childIncident).toMatchObject({ blocked_by: [router], suppressed_by: routerIncident.id });

      // Later passes of the release role change nothing while the router is down; all recover: one recovered.
      await tick(at + 5 * MINUTE);
      await report(childrenFirst, 'up', at + 6 * MINUTE);
      await tick(at + 12 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`, `recovered ${router}`]);
      for (const c of children) expect(await outboxTypes(c)).toEqual([]);
    });

    it('children confirmed down in a batch before the router is: held while the router fails unconfirmed, one down', async () => {
      const dst = await destinations();
      const router = await monitor('Access router', dst);
      const children: string[] = [];
      for (let i = 0; i < 50; i++) children.push(await monitor(`Branch ${i}`, dst, [router]));
      const at = clock.now();
      await report([router, ...children], 'up', at);
      // Round 1: every check fails once (threshold 2: nothing confirmed). Round 2: the children's batch comes first
      // and confirms them while the router has one failure; the router's own batch confirms it 20 s later.
      await report(children, 'down', at + MINUTE);
      await report([router], 'down', at + MINUTE + 20_000);
      await report(children, 'down', at + 2 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([]);
      const held = (await call('GET', `/api/v1/incidents?monitor_id=${children[3]}`)).body.data[0];
      expect(held).toMatchObject({ status: 'opened', blocked_by: [router], alert_released_at: null });
      const timeline = (await call('GET', `/api/v1/incidents/${held.id}`)).body.timeline;
      expect(timeline.map((e: Json) => e.message)).toContain('Alert held: Access router is failing its checks.');
      await report([router], 'down', at + 2 * MINUTE + 20_000);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`]);

      // The holds come due while the router is down: they stay held; everything recovers: one recovered.
      await tick(at + 6 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`]);
      await report([router, ...children], 'up', at + 7 * MINUTE);
      await tick(at + 15 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`, `recovered ${router}`]);
      for (const c of children) expect(await outboxTypes(c)).toEqual([]);
    });

    it('a child held by a parent whose failure was a blip alerts once the parent’s verdict is due', async () => {
      const dst = await destinations();
      const parent = await monitor('Gateway', dst);
      const child = await monitor('Orders', dst, [parent]);
      const at = clock.now();
      await report([parent, child], 'up', at);
      await report([child], 'down', at + MINUTE);
      await report([parent], 'down', at + MINUTE + 10_000); // one failed check of the gateway
      await report([child], 'down', at + 2 * MINUTE); // Orders confirmed: held, the gateway is failing
      await report([parent], 'up', at + 2 * MINUTE + 10_000); // a blip: the gateway never goes down
      for (const r of receivers) expect(sent(r)).toEqual([]);
      // The gateway's verdict was due at the latest 60 s × (2 − 1 + 1) after its failing check: 03:10 after `at`.
      await tick(at + 3 * MINUTE + 9_000);
      for (const r of receivers) expect(sent(r)).toEqual([]);
      await tick(at + 3 * MINUTE + 10_000);
      await tick(at + 4 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${child}`]);
    });

    it('a parent in maintenance holds its children like a parent that is down, whatever its stored status', async () => {
      const dst = await destinations();
      const parent = await monitor('Database primary', dst);
      const child = await monitor('API', dst, [parent]);
      const base = clock.now();
      await report([parent, child], 'up', base);
      // A window on the parent only, from 10 to 40 minutes after `base`; its checks keep passing (status up).
      const startsAt = base + 10 * MINUTE;
      const endsAt = base + 40 * MINUTE;
      const w = await call('POST', '/api/v1/maintenance-windows', {
        name: 'Failover drill',
        monitor_ids: [parent],
        schedule: {
          type: 'once',
          starts_at: new Date(startsAt).toISOString(),
          ends_at: new Date(endsAt).toISOString(),
        },
      });
      expect(w.status, JSON.stringify(w.body)).toBe(201);
      await report([parent], 'up', startsAt + MINUTE);
      expect((await call('GET', `/api/v1/monitors/${parent}`)).body.status).toBe('maintenance');
      await report([child], 'down', startsAt + 2 * MINUTE);
      await report([child], 'down', startsAt + 3 * MINUTE);
      await report([parent], 'up', startsAt + 4 * MINUTE);
      const held = (await call('GET', `/api/v1/incidents?monitor_id=${child}`)).body.data[0];
      expect(held).toMatchObject({ status: 'opened', blocked_by: [parent], suppressed_by: null });
      const timeline = (await call('GET', `/api/v1/incidents/${held.id}`)).body.timeline;
      expect(timeline.map((e: Json) => e.message)).toContain('Alert held: Database primary is in maintenance.');
      // The monitor list names the parent in maintenance that blocks the child.
      expect((await call('GET', `/api/v1/monitors/${child}`)).body).toMatchObject({
        status: 'down',
        blocked_by: [parent],
      });
      const listed = (await call('GET', '/api/v1/monitors?limit=100')).body.data as Json[];
      expect(listed.find((m) => m.id === child)).toMatchObject({ blocked_by: [parent] });
      await tick(endsAt - 1);
      for (const r of receivers) expect(sent(r)).toEqual([]);
      expect(await outboxTypes(child)).toEqual([]);

      // The window ends with the API still down: its alert goes out then, once; its recovery follows.
      await report([child], 'down', endsAt - 30_000);
      await tick(endsAt);
      await tick(endsAt + MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${child}`]);
      await report([child], 'up', endsAt + 2 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${child}`, `recovered ${child}`]);
    });

    it('a child that recovers inside its parent’s window is never alerted', async () => {
      const dst = await destinations();
      const parent = await monitor('Storage', dst);
      const child = await monitor('Uploads', dst, [parent]);
      const base = clock.now();
      await report([parent, child], 'up', base);
      const w = await call('POST', '/api/v1/maintenance-windows', {
        name: 'Disk swap',
        monitor_ids: [parent],
        schedule: {
          type: 'once',
          starts_at: new Date(base + 10 * MINUTE).toISOString(),
          ends_at: new Date(base + 40 * MINUTE).toISOString(),
        },
      });
      expect(w.status, JSON.stringify(w.body)).toBe(201);
      await report([child], 'down', base + 12 * MINUTE);
      await report([child], 'down', base + 13 * MINUTE);
      await report([child], 'up', base + 20 * MINUTE);
      await tick(base + 41 * MINUTE);
      await tick(base + 45 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([]);
      expect(await outboxTypes(child)).toEqual([]);
    });

    it('depends_on is read back; cycles, unknown and foreign ids are refused naming the field, nothing saved', async () => {
      const a = await monitor('A', []);
      const b = await monitor('B', [], [a]);
      const c = await monitor('C', [], [b]);
      expect((await call('GET', `/api/v1/monitors/${c}`)).body.config.depends_on).toEqual([b]);

      const refused = async (id: string, dependsOn: string[], field: string, issue: RegExp) => {
        const res = await call('PATCH', `/api/v1/monitors/${id}`, { config: { depends_on: dependsOn } });
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body.error.details).toEqual([{ field, issue: expect.stringMatching(issue) }]);
      };
      await refused(a, [a], 'config.depends_on[0]', /cannot depend on itself/);
      await refused(a, [b], 'config.depends_on[0]', new RegExp(`cycle: ${a} → ${b} → ${a}`));
      await refused(a, [b, c], 'config.depends_on[0]', /cycle/);
      await refused(a, ['mon_00000000000000000000000000'], 'config.depends_on[0]', /does not exist/);
      const other = org;
      org = await t.createOrg();
      const foreign = await monitor('Foreign', []);
      org = other;
      await refused(c, [b, foreign], 'config.depends_on[1]', /does not exist/);
      const bad = await call('PATCH', `/api/v1/monitors/${a}`, { config: { depends_on: ['nope'] } });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details[0].field).toBe('config.depends_on[0]');
      const create = await call('POST', '/api/v1/monitors', {
        target: 'https://d.example.com',
        config: { depends_on: [foreign] },
      });
      expect(create.status).toBe(422);
      expect(create.body.error.details[0].field).toBe('config.depends_on[0]');

      // Nothing saved: A still depends on nothing, C on B alone, and A's children are B only.
      expect((await call('GET', `/api/v1/monitors/${a}`)).body.config.depends_on).toBeUndefined();
      expect((await call('GET', `/api/v1/monitors/${c}`)).body.config.depends_on).toEqual([b]);
      expect((await app.services.monitors.childrenOf(app.database, a)).map((m) => m.id)).toEqual([b]);
      const list = await call('GET', '/api/v1/monitors?limit=100');
      expect(list.body.data).toHaveLength(3);

      // A change that keeps the graph acyclic is taken; deleting a parent takes it out of its children.
      const ok = await call('PATCH', `/api/v1/monitors/${c}`, { config: { depends_on: [a, b] } });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.config.depends_on).toEqual([a, b]);
      expect((await call('DELETE', `/api/v1/monitors/${b}`)).status).toBe(204);
      expect((await call('GET', `/api/v1/monitors/${c}`)).body.config.depends_on).toEqual([a]);
      expect((await app.services.monitors.childrenOf(app.database, a)).map((m) => m.id)).toEqual([c]);
    });

    it('a child still down when its parent recovers is alerted then, once, across a restart; its recovery is sent', async () => {
      const dst = await destinations();
      const router = await monitor('Edge router', dst);
      const stays = await monitor('Billing', dst, [router]);
      const recovers = await monitor('Search', dst, [router]);
      const at = clock.now();
      await report([router, stays, recovers], 'up', at);
      await report([router, stays, recovers], 'down', at + MINUTE);
      await report([router, stays, recovers], 'down', at + 2 * MINUTE);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`]);

      // A restart while the children are held: the decision lives in the rows, not in the process.
      await app.close();
      restarted = await createTocsin(t.config, {
        clock,
        migrate: false,
        background: false,
        logger: createLogger({ level: 'warn', pretty: false, destination: new LogCapture() }),
      });
      app = restarted;

      // Search recovers while the router is still down: never alerted, so nothing is sent for its recovery.
      await report([recovers], 'up', at + 3 * MINUTE);
      // The router recovers; Billing's next check still fails. Its checks (every 60 s, success threshold 1) have
      // seen the recovery 2 minutes after it: its alert goes out then, once per destination.
      await report([router], 'up', at + 4 * MINUTE);
      await report([stays], 'down', at + 5 * MINUTE);
      await tick(at + 6 * MINUTE - 1);
      for (const r of receivers) expect(sent(r)).toEqual([`down ${router}`, `recovered ${router}`]);
      await tick(at + 6 * MINUTE);
      await tick(at + 6 * MINUTE + 30_000);
      const afterRecovery = [`down ${router}`, `recovered ${router}`, `down ${stays}`];
      for (const r of receivers) expect(sent(r)).toEqual(afterRecovery);
      const billing = (await call('GET', `/api/v1/incidents?monitor_id=${stays}`)).body.data[0];
      expect(billing).toMatchObject({
        status: 'opened',
        blocked_by: [router],
        alert_released_at: new Date(at + 6 * MINUTE).toISOString(),
      });
      const timeline = (await call('GET', `/api/v1/incidents/${billing.id}`)).body.timeline.map((e: Json) => e.type);
      expect(timeline).toEqual(['opened', 'alert_held', 'alert_released']);
      const monitorRead = await call('GET', `/api/v1/monitors/${stays}`);
      expect(monitorRead.body.status).toBe('down');
      expect(monitorRead.body.blocked_by).toBeUndefined();
      expect(await outboxTypes(recovers)).toEqual([]);

      // The router flaps while Billing stays down: no second alert for Billing's one outage.
      await report([router], 'down', at + 7 * MINUTE);
      await report([router], 'down', at + 8 * MINUTE);
      await report([router], 'up', at + 9 * MINUTE);
      await tick(at + 12 * MINUTE);
      // Billing recovers: it was alerted, so its recovery is sent even with the router down again.
      await report([router], 'down', at + 13 * MINUTE);
      await report([router], 'down', at + 14 * MINUTE);
      await report([stays], 'up', at + 15 * MINUTE);
      for (const r of receivers)
        expect(sent(r)).toEqual([
          ...afterRecovery,
          `down ${router}`,
          `recovered ${router}`,
          `down ${router}`,
          `recovered ${stays}`,
        ]);
      expect(await outboxTypes(stays)).toEqual(['down', 'incident_opened', 'recovered', 'incident_resolved']);
    });
  });
}
