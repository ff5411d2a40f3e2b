import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlerting } from '../alerting.module.ts';
import { DeliveriesRepository } from '../deliveries.repository.ts';
import { RETRY_DELAYS_MS } from './retry.schedule.ts';
import { EventsService } from '../../events/index.ts';
import { loadMasterKey } from '../../../platform/secrets.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../../../../test/support/app.ts';
import { testDialects } from '../../../../test/support/databases.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test/fakes/index.ts';
import { api, createMonitor, recordEvent, WEBHOOKS } from '../../../../test/alerting/helpers.ts';

for (const dialect of testDialects()) {
  describe(`alert pipeline (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: TestOrg;
    let receiver: WebhookReceiver;
    let secret = '';
    let destinationId = '';
    let monitorId = '';

    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'));
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
      receiver = await startWebhookReceiver({
        get secret() {
          return secret;
        },
        now: () => clock.now(),
      } as { secret: string; now: () => number });
      const created = await api(t, org.apiKey, 'POST', WEBHOOKS, {
        type: 'generic_webhook',
        name: 'Ops hook',
        config: { url: receiver.webhookUrl },
      });
      secret = created.body.signing_secret;
      destinationId = created.body.id;
      monitorId = await createMonitor(t, org.apiKey, [destinationId]);
    });
    afterAll(async () => {
      await receiver.close();
      await t.close();
    });

    const pipeline = () => t.tocsin.services.alerting.pipeline;
    const deliveries = () => new DeliveriesRepository(t.tocsin.database);
    const destination = async () => (await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${destinationId}`)).body;

    it('delivers a signed down with a stable dlv id, and records last_success_at', async () => {
      receiver.reset();
      const eventId = await recordEvent(t, {
        organizationId: org.organizationId,
        type: 'down',
        monitorId,
        payload: { cause: 'HTTP 503 (expected 200)' },
      });
      await pipeline().runUntilIdle();
      expect(receiver.verified()).toHaveLength(1);
      const req = receiver.requests[0]!;
      const [d] = await deliveries().listByEvent(eventId);
      expect(req.headers['x-service-delivery']).toBe(d!.id);
      expect(d!.id).toMatch(/^dlv_/);
      expect(d!.status).toBe('delivered');
      expect(req.json).toMatchObject({
        event: 'down',
        id: eventId,
        monitor: { id: monitorId },
        destination: { id: destinationId, name: 'Ops hook' },
      });
      expect((await destination()).last_success_at).toBe(new Date(clock.now()).toISOString());
    });

    it('retries 5xx on the schedule 1 m, 5 m, 30 m, 2 h, 6 h, then fails; every attempt records the failure', async () => {
      receiver.reset();
      receiver.failNext('server_error', 10);
      const eventId = await recordEvent(t, { organizationId: org.organizationId, type: 'recovered', monitorId });
      await pipeline().runUntilIdle();
      for (const delay of RETRY_DELAYS_MS) {
        const [d] = await deliveries().listByEvent(eventId);
        expect(d!.status).toBe('pending');
        const wait = d!.nextAttemptAt - clock.now();
        expect(wait).toBeGreaterThanOrEqual(delay * 0.9);
        expect(wait).toBeLessThanOrEqual(delay * 1.1);
        clock.advance(wait - 1);
        await pipeline().runUntilIdle();
        expect((await deliveries().listByEvent(eventId))[0]!.attempts).toBe(RETRY_DELAYS_MS.indexOf(delay) + 1);
        clock.advance(1);
        await pipeline().runUntilIdle();
      }
      const [d] = await deliveries().listByEvent(eventId);
      expect(d!.status).toBe('failed');
      expect(d!.attempts).toBe(6);
      expect(receiver.requests).toHaveLength(6);
      expect(new Set(receiver.requests.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([d!.id]));
      const dst = await destination();
      expect(dst.last_failure_at).toBe(new Date(clock.now()).toISOString());
      expect(dst.last_failure_reason).toMatch(/500/);
    });

    it('honours Retry-After on 429', async () => {
      receiver.reset();
      receiver.failNext('rate_limited'); // Retry-After: 120
      const eventId = await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      const start = clock.now();
      await pipeline().runUntilIdle();
      const [d] = await deliveries().listByEvent(eventId);
      expect(d!.nextAttemptAt).toBe(start + 120_000);
      clock.advance(120_000);
      await pipeline().runUntilIdle();
      expect((await deliveries().listByEvent(eventId))[0]!.status).toBe('delivered');
    });

    it('fails a 4xx at once (no retry)', async () => {
      receiver.reset();
      receiver.failNext('bad_request');
      const eventId = await recordEvent(t, { organizationId: org.organizationId, type: 'recovered', monitorId });
      await pipeline().runUntilIdle();
      clock.advance(24 * 3_600_000);
      await pipeline().runUntilIdle();
      const [d] = await deliveries().listByEvent(eventId);
      expect(d!.status).toBe('failed');
      expect(d!.attempts).toBe(1);
      expect(receiver.requests).toHaveLength(1);
    });

    it('a 410 marks the destination failing with the reason', async () => {
      // A success first (whatever ran before), so that the failure has a last_success_at to be later than.
      receiver.reset();
      await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      await pipeline().runUntilIdle();
      clock.advance(1000);
      receiver.reset();
      receiver.failNext('gone');
      const eventId = await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      await pipeline().runUntilIdle();
      const [d] = await deliveries().listByEvent(eventId);
      expect(d!.status).toBe('failed');
      const dst = await destination();
      expect(dst.last_failure_reason).toMatch(/destination broken.*410/);
      expect(Date.parse(dst.last_failure_at)).toBeGreaterThan(Date.parse(dst.last_success_at));
    });

    it('delivers a monitor’s events to one destination in the order they happened, even across retries', async () => {
      receiver.reset();
      receiver.failNext('server_error', 1);
      const first = await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      const second = await recordEvent(t, { organizationId: org.organizationId, type: 'recovered', monitorId });
      const third = await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      await pipeline().runUntilIdle();
      // The first failed and waits a minute; the later ones must wait behind it.
      expect(receiver.requests).toHaveLength(1);
      expect((await deliveries().listByEvent(second))[0]!.status).toBe('pending');
      clock.advance(RETRY_DELAYS_MS[0]! * 1.2);
      await pipeline().runUntilIdle();
      expect(receiver.requests.map((r) => (r.json as { id: string }).id)).toEqual([first, first, second, third]);
    });

    it('a worker that dies mid-send leaves a lease; after it expires the SAME delivery id is retried', async () => {
      receiver.reset();
      const eventId = await recordEvent(t, { organizationId: org.organizationId, type: 'recovered', monitorId });
      await pipeline().fanOutOnce();
      const now = clock.now();
      const [claimed] = await deliveries().claim('dead-worker', now, now + 60_000, 10);
      expect(claimed!.eventId).toBe(eventId);
      await pipeline().runUntilIdle();
      expect(receiver.requests).toHaveLength(0);
      clock.advance(60_001);
      await pipeline().runUntilIdle();
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]!.headers['x-service-delivery']).toBe(claimed!.id);
      expect(
        await deliveries().finishAttempt(claimed!.id, 'dead-worker', {
          status: 'failed',
          at: clock.now(),
          error: 'late',
        }),
      ).toBe(false);
    });

    // Several processes share the work on PostgreSQL only (DECISIONS §10; registered there only, never a skip); SQLite
    // is one process.
    if (dialect === 'postgres')
      it('two processes never fan out the same event twice', async () => {
        receiver.reset();
        const second = t.db.reopen();
        const events2 = new EventsService({ database: second, clock });
        const other = createAlerting({
          config: t.config,
          database: second,
          clock,
          logger: t.tocsin.logger,
          events: events2,
          orgs: t.tocsin.services.orgs,
          monitors: t.tocsin.services.monitors,
          version: 'test',
          mailer: t.tocsin.services.alerting.mailer,
          masterKey: loadMasterKey({ configured: t.config.masterKey, dataDir: t.config.dataDir, warn: () => {} }),
        });
        const ids: string[] = [];
        for (let i = 0; i < 20; i++)
          ids.push(
            await recordEvent(t, { organizationId: org.organizationId, type: i % 2 ? 'recovered' : 'down', monitorId }),
          );
        await Promise.all([
          pipeline().fanOutOnce(),
          other.pipeline.fanOutOnce(),
          pipeline().fanOutOnce(),
          other.pipeline.fanOutOnce(),
        ]);
        await Promise.all([pipeline().runUntilIdle(), other.pipeline.runUntilIdle()]);
        for (const id of ids) expect(await deliveries().listByEvent(id)).toHaveLength(1);
        expect(receiver.requests.map((r) => (r.json as { id: string }).id)).toEqual(ids);
        expect(receiver.verified()).toHaveLength(20);
      });
  });
}
