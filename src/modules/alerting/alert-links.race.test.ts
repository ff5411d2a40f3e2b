import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, WEBHOOKS } from '../../../test/alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../../../test/support/app.ts';
import { testDialects } from '../../../test/support/databases.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError } from '../../platform/errors.ts';
import type { Actor, ServiceContext } from '../auth/index.ts';
import { validateAssertion } from '../checks/index.ts';
import { MonitorsService } from '../monitors/index.ts';
import { Plans } from '../orgs/index.ts';
import { AlertLinks } from './alert-links.ts';

/**
 * A monitor change that links a destination deleted (on a second connection) after the monitor was validated and
 * before its transaction: the check of the destination ids runs a hook once, right after it read them, so the
 * interleaving is exact.
 */
for (const dialect of testDialects()) {
  describe(`monitor links to a destination deleted meanwhile (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let actor: Actor;
    let other: Database;
    let monitors: MonitorsService;
    let afterNextCheck: (() => Promise<void>) | null = null;

    const here = (): ServiceContext => ({ actor, db: t.tocsin.database, clock: t.clock });
    const elsewhere = (): ServiceContext => ({ actor, db: other, clock: t.clock });

    beforeAll(async () => {
      t = await createTestApp({ dialect, clock: new ManualClock(Date.parse('2026-11-23T10:00:00Z')) });
      org = await t.createOrg();
      actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
      other = t.db.reopen();
      const links = new AlertLinks(t.clock);
      monitors = new MonitorsService({
        database: t.tocsin.database,
        clock: t.clock,
        plans: new Plans(t.config.plans),
        regions: t.config.regions,
        publicUrl: t.config.publicUrl,
        defaultRegionOf: async () => t.config.defaultRegion,
        validateAssertion,
        alertLinks: {
          destinationIdsOf: (db, organizationId, ids) => links.destinationIdsOf(db, organizationId, ids),
          destinationIdsOfMonitorRow: (dialect) => links.destinationIdsOfMonitorRow(dialect),
          replaceForMonitor: (tx, organizationId, monitorId, ids) =>
            links.replaceForMonitor(tx, organizationId, monitorId, ids),
          missingDestinationIds: async (db, organizationId, ids) => {
            const missing = await links.missingDestinationIds(db, organizationId, ids);
            const hook = afterNextCheck;
            afterNextCheck = null;
            await hook?.();
            return missing;
          },
        },
        lockOrganization: (tx, organizationId) => t.tocsin.services.orgs.lockOrganization(tx, organizationId),
        targetGuard: { issuesOf: async () => [] },
      });
    });
    afterAll(async () => {
      await t.close();
    });

    const newDestination = async () =>
      (await api(t, org.apiKey, 'POST', WEBHOOKS, { type: 'email', config: { address: 'ops@example.com' } })).body
        .id as string;
    const monitorCount = async () => (await t.tocsin.services.monitors.list(here(), {}, { limit: 200 })).data.length;
    const failure = (change: Promise<unknown>) =>
      change.then(
        () => null,
        (e: unknown) => e,
      );

    it('create is 422 on config.alert_destination_ids[i] and stores nothing', async () => {
      const kept = await newDestination();
      const doomed = await newDestination();
      const before = await monitorCount();
      afterNextCheck = () => t.tocsin.services.alerting.destinations.delete(elsewhere(), doomed);
      const err = await failure(
        monitors.create(here(), {
          target: 'https://checkout.example.com/',
          config: { alert_destination_ids: [kept, doomed] },
        }),
      );
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('validation_failed');
      expect((err as DomainError).details?.map((d) => d.field)).toEqual(['config.alert_destination_ids[1]']);
      expect(await monitorCount()).toBe(before);
    });

    it('update is 422 on config.alert_destination_ids[i] and changes nothing', async () => {
      const kept = await newDestination();
      const doomed = await newDestination();
      const created = await t.tocsin.services.monitors.create(here(), {
        name: 'Checkout',
        target: 'https://checkout.example.com/',
        config: { alert_destination_ids: [kept] },
      });
      afterNextCheck = () => t.tocsin.services.alerting.destinations.delete(elsewhere(), doomed);
      const err = await failure(
        monitors.update(here(), created.id, { name: 'Changed', config: { alert_destination_ids: [doomed, kept] } }),
      );
      expect((err as DomainError).code).toBe('validation_failed');
      expect((err as DomainError).details?.map((d) => d.field)).toEqual(['config.alert_destination_ids[0]']);
      const after = await t.tocsin.services.monitors.get(here(), created.id);
      expect(after.name).toBe('Checkout');
      expect(after.config.alert_destination_ids).toEqual([kept]);
    });
  });
}
