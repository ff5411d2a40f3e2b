import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveriesRepository } from '../deliveries.repository.ts';
import { classifyAttempt } from './classify.stage.ts';
import { recordAttempt } from './record.stage.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../../../../test/support/app.ts';
import { testDialects } from '../../../../test/support/databases.ts';
import { api, createMonitor, recordEvent, WEBHOOKS } from '../../../../test/alerting/helpers.ts';

for (const dialect of testDialects()) {
  describe(`recording an attempt (${dialect})`, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: TestOrg;
    let destinationId = '';
    let monitorId = '';

    beforeAll(async () => {
      clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'));
      t = await createTestApp({ dialect, clock });
      org = await t.createOrg();
    });
    // A destination and monitor per case: a delivery left in flight by another case would hold this case's back.
    beforeEach(async () => {
      destinationId = (
        await api(t, org.apiKey, 'POST', WEBHOOKS, { type: 'email', config: { address: 'ops@example.com' } })
      ).body.id;
      monitorId = await createMonitor(t, org.apiKey, [destinationId]);
    });
    afterAll(async () => {
      await t.close();
    });

    const claimOne = async (owner: string) => {
      const eventId = await recordEvent(t, { organizationId: org.organizationId, type: 'down', monitorId });
      await t.tocsin.services.alerting.pipeline.fanOutOnce();
      const repo = new DeliveriesRepository(t.tocsin.database);
      const [pending] = await repo.listByEvent(eventId);
      const [claimed] = await repo.claim(owner, clock.now(), clock.now() + 60_000, 1, pending!.id);
      return claimed!;
    };
    const destination = async () => (await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${destinationId}`)).body;

    it('writes the delivery and the destination together, and nothing once the lease is lost', async () => {
      const delivery = await claimOne('worker-1');
      const verdict = classifyAttempt({ outcome: 'ok' }, delivery.attempts, clock.now(), () => 0.5);
      expect(await recordAttempt(t.tocsin.database, 'worker-2', delivery, { outcome: 'ok' }, verdict)).toBe(false);
      expect((await destination()).last_success_at).toBeNull();
      expect((await new DeliveriesRepository(t.tocsin.database).find(delivery.id))?.status).toBe('in_flight');

      expect(await recordAttempt(t.tocsin.database, 'worker-1', delivery, { outcome: 'ok' }, verdict)).toBe(true);
      expect((await destination()).last_success_at).not.toBeNull();
      expect((await new DeliveriesRepository(t.tocsin.database).find(delivery.id))?.status).toBe('delivered');
    });

    it('a rollback of the transaction takes back both writes', async () => {
      clock.advance(1000);
      const delivery = await claimOne('worker-1');
      const failure = { outcome: 'payload_rejected' as const, reason: 'HTTP 400' };
      const verdict = classifyAttempt(failure, delivery.attempts, clock.now(), () => 0.5);
      await expect(
        t.tocsin.database.transaction(async (tx) => {
          await recordAttempt(tx, 'worker-1', delivery, failure, verdict);
          throw new Error('crash before commit');
        }),
      ).rejects.toThrow('crash before commit');
      expect((await destination()).last_failure_at).toBeNull();
      expect((await new DeliveriesRepository(t.tocsin.database).find(delivery.id))?.status).toBe('in_flight');
    });
  });
}
