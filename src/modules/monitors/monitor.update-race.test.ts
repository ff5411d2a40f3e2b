import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, ManualClock, type TestApp, type TestOrg } from '../../../test/support/app.ts';
import { testDialects } from '../../../test/support/databases.ts';
import type { Database } from '../../platform/db/index.ts';
import { AlertLinks } from '../alerting/index.ts';
import type { Actor, ServiceContext } from '../auth/index.ts';
import { validateAssertion } from '../checks/index.ts';
import { Plans } from '../orgs/index.ts';
import { MonitorsService } from './monitor.service.ts';

/**
 * A monitor update racing another write that commits between the update's read (and validation) and its
 * transaction: the check engine's status, or another PATCH on a second connection. The target guard (called once
 * validation has read the monitor) runs a hook once, so the interleaving is exact.
 */
for (const dialect of testDialects()) {
  describe(`monitor update racing other writes (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let actor: Actor;
    let other: Database;
    let monitors: MonitorsService;
    let afterNextValidation: (() => Promise<void>) | null = null;

    const here = (): ServiceContext => ({ actor, db: t.tocsin.database, clock: t.clock });
    const elsewhere = (): ServiceContext => ({ actor, db: other, clock: t.clock });

    beforeAll(async () => {
      t = await createTestApp({ dialect, clock: new ManualClock(Date.parse('2026-11-23T10:00:00Z')) });
      org = await t.createOrg();
      actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
      other = t.db.reopen();
      monitors = new MonitorsService({
        database: t.tocsin.database,
        clock: t.clock,
        plans: new Plans(t.config.plans),
        regions: t.config.regions,
        publicUrl: t.config.publicUrl,
        defaultRegionOf: async () => t.config.defaultRegion,
        validateAssertion,
        alertLinks: new AlertLinks(t.clock),
        lockOrganization: (tx, organizationId) => t.tocsin.services.orgs.lockOrganization(tx, organizationId),
        targetGuard: {
          issuesOf: async () => {
            const hook = afterNextValidation;
            afterNextValidation = null;
            await hook?.();
            return [];
          },
        },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    const newMonitor = async () => {
      const res = await t.tocsin.app.inject({
        method: 'POST',
        url: '/api/v1/monitors',
        headers: { ...bearer(org.apiKey), 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Checkout', target: 'https://checkout.example.com/', tags: ['shop'] }),
      });
      expect(res.statusCode).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const stored = async (id: string) => (await t.tocsin.services.monitors.findManyAnywhere([id]))[0]!;

    it('keeps the status the check engine recorded while the update was being validated', async () => {
      const id = await newMonitor();
      const downAt = t.clock.now() + 5;
      afterNextValidation = () => t.tocsin.services.monitors.recordStatus(id, 'down', downAt, other);
      await monitors.update(here(), id, { name: 'Checkout (EU)' });
      const after = await stored(id);
      expect(after.name).toBe('Checkout (EU)');
      expect(after.status).toBe('down');
      expect(after.statusChangedAt).toBe(downAt);
    });

    it('two PATCHes of different fields both land when one commits between the other’s read and write', async () => {
      const id = await newMonitor();
      afterNextValidation = async () => {
        await monitors.update(elsewhere(), id, { tags: ['shop', 'eu'] });
      };
      await monitors.update(here(), id, { name: 'Checkout (EU)' });
      const after = await stored(id);
      expect(after.name).toBe('Checkout (EU)');
      expect(after.tags).toEqual(['shop', 'eu']);
    });
  });
}
