import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/modules/auth/index.ts';
import { EventsService, isFeedEvent, type DomainEvent } from '../../src/modules/events/index.ts';
import { IncidentRemindersRole, IncidentsService, type MonitorTransition } from '../../src/modules/incidents/index.ts';
import type { Monitor } from '../../src/modules/monitors/index.ts';
import type { Database } from '../../src/platform/db/index.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createTestApp, ManualClock, type TestApp } from '../support/app.ts';
import { testDialects } from '../support/databases.ts';
import { contextFor } from '../support/context.ts';

for (const dialect of testDialects()) {
  describe(`incidents service (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let incidents: IncidentsService;
    let database: Database;

    beforeAll(async () => {
      clock = new ManualClock('2026-03-01T12:00:00.000Z');
      t = await createTestApp({ dialect, clock });
      incidents = t.tocsin.services.incidents;
      database = t.tocsin.database;
    });
    afterAll(async () => t.close());
    const ctxOf = (actor: Actor) => contextFor(t, actor);

    async function setup(
      config: Record<string, unknown> = {},
      environments?: string[],
    ): Promise<{ actor: Actor; monitor: Monitor }> {
      const org = await t.createOrg(environments ? { environments } : {});
      const actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
      const monitor = await t.tocsin.services.monitors.create(ctxOf(actor), {
        name: 'API',
        target: 'https://example.com/health',
        config,
      });
      return { actor, monitor };
    }

    function transition(
      monitor: Monitor,
      from: MonitorTransition['from'],
      to: MonitorTransition['to'],
      cause: string | null = null,
    ): MonitorTransition {
      return {
        organizationId: monitor.organizationId,
        monitorId: monitor.id,
        monitorName: monitor.name,
        from,
        to,
        at: clock.now(),
        cause,
        executionId: null,
      };
    }

    async function eventsOf(organizationId: string): Promise<DomainEvent[]> {
      // The alert events (the live feed's monitor_status_changed, e.g. for a pause, are tested with the stream).
      return (await t.tocsin.services.events.readAfter(0, 10_000)).filter(
        (e) => e.organizationId === organizationId && !isFeedEvent(e.type),
      );
    }

    async function apply(
      tr: MonitorTransition,
      db: Database = database,
      service: IncidentsService = incidents,
    ): Promise<void> {
      await db.transaction((tx) => service.handleMonitorTransition(tx, tr));
    }

    it('opens one incident on down, ignores a repeated down, resolves on up with events in order', async () => {
      const { actor, monitor } = await setup();
      const openedAt = clock.now();
      await apply(transition(monitor, 'up', 'down', 'HTTP 503 (expected 200)'));
      let page = await incidents.list(ctxOf(actor), {}, { limit: 50 });
      expect(page.data).toHaveLength(1);
      const inc = page.data[0]!;
      expect(inc).toMatchObject({
        number: 1,
        title: 'API is down',
        source: 'monitor',
        monitorId: monitor.id,
        cause: 'HTTP 503 (expected 200)',
        status: 'opened',
        openedAt,
      });

      clock.advance(30_000);
      await apply(transition(monitor, 'up', 'down', 'HTTP 500'));
      page = await incidents.list(ctxOf(actor), {}, { limit: 50 });
      expect(page.data).toHaveLength(1);

      clock.advance(90_000);
      await apply(transition(monitor, 'down', 'up'));
      const resolved = await incidents.get(ctxOf(actor), inc.id);
      expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: 'auto', durationSeconds: 120 });
      expect(resolved.timeline.map((e) => e.type)).toEqual(['opened', 'monitor_down', 'monitor_up', 'resolved']);

      const events = await eventsOf(monitor.organizationId);
      expect(events.map((e) => e.type)).toEqual(['down', 'incident_opened', 'recovered', 'incident_resolved']);
      for (const e of events) expect(e).toMatchObject({ monitorId: monitor.id, incidentId: inc.id });
      expect(events[0]!.payload).toMatchObject({
        cause: 'HTTP 503 (expected 200)',
        since: new Date(openedAt).toISOString(),
        incident_number: 1,
      });
      expect(events[2]!.payload).toMatchObject({ since: new Date(openedAt).toISOString(), duration_seconds: 120 });

      clock.advance(60_000);
      await apply(transition(monitor, 'up', 'down', 'timeout'));
      page = await incidents.list(ctxOf(actor), { status: 'opened' }, { limit: 50 });
      expect(page.data.map((i) => i.number)).toEqual([2]);
    });

    it('records nothing when the transaction rolls back', async () => {
      const { actor, monitor } = await setup();
      await expect(
        database.transaction(async (tx) => {
          await incidents.handleMonitorTransition(tx, transition(monitor, 'up', 'down', 'boom'));
          throw new Error('engine failed after the handler');
        }),
      ).rejects.toThrow('engine failed');
      expect((await incidents.list(ctxOf(actor), {}, { limit: 50 })).data).toHaveLength(0);
      expect(await eventsOf(monitor.organizationId)).toHaveLength(0);
      // The number was not consumed either.
      await apply(transition(monitor, 'up', 'down', 'boom'));
      expect((await incidents.list(ctxOf(actor), {}, { limit: 50 })).data[0]!.number).toBe(1);
    });

    it('opens exactly one incident when two processes handle the same down transition at once', async () => {
      const { actor, monitor } = await setup();
      const other = t.db.reopen();
      const otherService = new IncidentsService({
        database: other,
        clock,
        events: new EventsService({ database: other, clock }),
        monitors: t.tocsin.services.monitors,
      });
      const tr = transition(monitor, 'up', 'down', 'HTTP 502');
      // SQLite has one writer per file; its second handle waits for the first to commit (busy timeout).
      const results = await Promise.allSettled([apply(tr), apply(tr, other, otherService)]);
      expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
      const page = await incidents.list(ctxOf(actor), {}, { limit: 50 });
      expect(page.data).toHaveLength(1);
      const events = await eventsOf(monitor.organizationId);
      expect(events.filter((e) => e.type === 'down')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'incident_opened')).toHaveLength(1);
      // No number was lost to the loser.
      const next = await incidents.create(ctxOf(actor), { title: 'Manual' });
      expect(next.number).toBe(2);
    });

    it('numbers concurrent creations 1..n without gaps or duplicates', async () => {
      const { actor } = await setup();
      const n = 12;
      const created = await Promise.all(
        Array.from({ length: n }, (_, i) => incidents.create(ctxOf(actor), { title: `Incident ${i}` })),
      );
      expect(created.map((c) => c.number).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const events = await eventsOf(actor.organizationId);
      expect(events.filter((e) => e.type === 'incident_opened')).toHaveLength(n);
      for (const c of created) expect(c.source).toBe('api');
    });

    it('numbers per organization independently', async () => {
      const a = await setup();
      const b = await setup();
      expect((await incidents.create(ctxOf(a.actor), { title: 'a' })).number).toBe(1);
      expect((await incidents.create(ctxOf(b.actor), { title: 'b' })).number).toBe(1);
      expect((await incidents.create(ctxOf(a.actor), { title: 'a2' })).number).toBe(2);
    });

    it('acknowledges, resolves, and refuses to acknowledge a resolved incident', async () => {
      const { actor } = await setup();
      const inc = await incidents.create(ctxOf(actor), { title: 'Checkout slow', cause: 'p95 over 2s' });
      clock.advance(10_000);
      const acked = await incidents.acknowledge(ctxOf(actor), inc.id);
      expect(acked).toMatchObject({
        status: 'acknowledged',
        acknowledgedBy: actor.userId,
        acknowledgedAt: clock.now(),
      });
      const again = await incidents.acknowledge(ctxOf(actor), inc.id);
      expect(again.acknowledgedAt).toBe(acked.acknowledgedAt);
      clock.advance(20_000);
      const resolved = await incidents.resolve(ctxOf(actor), inc.id);
      expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: actor.userId, durationSeconds: 30 });
      clock.advance(5_000);
      const twice = await incidents.resolve(ctxOf(actor), inc.id);
      expect(twice.resolvedAt).toBe(resolved.resolvedAt);
      await expect(incidents.acknowledge(ctxOf(actor), inc.id)).rejects.toMatchObject({ code: 'validation_failed' });
      const events = await eventsOf(actor.organizationId);
      expect(events.map((e) => e.type)).toEqual(['incident_opened', 'incident_acknowledged', 'incident_resolved']);
      expect(resolved.timeline.map((e) => e.type)).toEqual(['opened', 'acknowledged', 'resolved']);
    });

    it('hides incidents of monitors in environments the key cannot see', async () => {
      const { actor, monitor } = await setup();
      await apply(transition(monitor, 'up', 'down', 'x'));
      await incidents.create(ctxOf(actor), { title: 'org-wide' });
      const staging = { ...actor, environments: ['staging'] };
      const page = await incidents.list(ctxOf(staging), {}, { limit: 1 });
      expect(page.data.map((i) => i.title)).toEqual(['org-wide']);
      expect(page.next_cursor).toBeNull();
      const hidden = (await incidents.list(ctxOf(actor), { source: 'monitor' }, { limit: 10 })).data[0]!;
      await expect(incidents.get(ctxOf(staging), hidden.id)).rejects.toMatchObject({ code: 'not_found' });
      await expect(incidents.create(ctxOf(staging), { title: 'x', monitor_id: monitor.id })).rejects.toMatchObject({
        code: 'validation_failed',
        details: [{ field: 'monitor_id', issue: expect.stringContaining(monitor.id) }],
      });
    });

    it('sends still_down reminders each time the interval elapses while the monitor is down', async () => {
      const { actor, monitor } = await setup({ reminder_interval_minutes: 10 });
      const role = new IncidentRemindersRole({
        incidents,
        monitors: t.tocsin.services.monitors,
        clock,
        logger: createLogger({ level: 'silent', pretty: false }),
      });
      await apply(transition(monitor, 'up', 'down', 'HTTP 500'));
      await t.tocsin.services.monitors.recordStatus(monitor.id, 'down', clock.now());
      const before = await role.tick();
      clock.advance(9 * 60_000);
      expect(await role.tick()).toBe(before);
      clock.advance(60_000);
      const stillDown = async () => (await eventsOf(actor.organizationId)).filter((e) => e.type === 'still_down');
      await role.tick();
      expect(await stillDown()).toHaveLength(1);
      await role.tick();
      expect(await stillDown()).toHaveLength(1);
      clock.advance(10 * 60_000);
      await role.tick();
      const reminders = await stillDown();
      expect(reminders).toHaveLength(2);
      expect(reminders[1]).toMatchObject({
        monitorId: monitor.id,
        payload: { duration_seconds: 1200, cause: 'HTTP 500' },
      });
      // Once recovered, no more reminders.
      await apply(transition(monitor, 'down', 'up'));
      clock.advance(30 * 60_000);
      await role.tick();
      expect(await stillDown()).toHaveLength(2);
    });

    it('resolves the open incident when its monitor is deleted; pausing leaves it open', async () => {
      const { actor, monitor } = await setup();
      await apply(transition(monitor, 'up', 'down', 'HTTP 500'));
      await t.tocsin.services.monitors.pause(ctxOf(actor), monitor.id);
      const inc = (await incidents.list(ctxOf(actor), {}, { limit: 10 })).data[0]!;
      expect(inc.status).toBe('opened');
      clock.advance(60_000);
      await t.tocsin.services.monitors.delete(ctxOf(actor), monitor.id);
      const full = await incidents.get(ctxOf(actor), inc.id);
      expect(full).toMatchObject({ status: 'resolved', resolvedBy: 'auto' });
      expect(full.timeline.map((e) => e.type)).toEqual(['opened', 'monitor_deleted', 'resolved']);
      const events = await eventsOf(actor.organizationId);
      expect(events.map((e) => e.type)).toEqual(['down', 'incident_opened', 'incident_resolved']);
      expect(events[2]!.payload).toMatchObject({ reason: 'monitor_deleted', resolved_by: 'auto' });
    });
  });
}
