import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createMonitor, WEBHOOKS } from '../../../test/alerting/helpers.ts';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../../../test/support/app.ts';
import { testDialects } from '../../../test/support/databases.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { loadMasterKey } from '../../platform/secrets.ts';
import type { Actor, ServiceContext } from '../auth/index.ts';
import type { MonitorsService } from '../monitors/index.ts';
import { createAlerting } from './alerting.module.ts';
import type { DestinationsService } from './destination.service.ts';

/**
 * Races between a destination change and another change that commits while the first one is between its checks
 * and its transaction. The monitors seen by the destination service pass through a hook that runs once, right after
 * the first monitor read of the next call (that read is the checks' read), so the interleaving is exact. The other
 * change runs on a second handle (a second connection; on PostgreSQL a second session).
 */
for (const dialect of testDialects()) {
  describe(`destination changes racing other changes (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let actor: Actor;
    let other: Database;
    let destinations: DestinationsService;
    let afterNextMonitorRead: (() => Promise<void>) | null = null;

    const here = (): ServiceContext => ({ actor, db: t.tocsin.database, clock: t.clock });
    const elsewhere = (): ServiceContext => ({ actor, db: other, clock: t.clock });

    beforeAll(async () => {
      t = await createTestApp({ dialect, clock: new ManualClock(Date.parse('2026-11-23T10:00:00Z')) });
      org = await t.createOrg();
      actor = (await t.tocsin.services.auth.authenticate(org.apiKey))!;
      other = t.db.reopen();
      const real = t.tocsin.services.monitors;
      const hooked = Object.create(real) as MonitorsService;
      hooked.findManyAnywhere = async (ids, db) => {
        const found = await real.findManyAnywhere(ids, db);
        const hook = afterNextMonitorRead;
        afterNextMonitorRead = null;
        await hook?.();
        return found;
      };
      destinations = createAlerting({
        config: t.config,
        database: t.tocsin.database,
        clock: t.clock,
        logger: t.tocsin.logger,
        events: t.tocsin.services.events,
        orgs: t.tocsin.services.orgs,
        monitors: hooked,
        version: 'test',
        mailer: t.tocsin.services.alerting.mailer,
        masterKey: loadMasterKey({ configured: t.config.masterKey, dataDir: t.config.dataDir, warn: () => {} }),
      }).destinations;
    });
    afterAll(async () => {
      await t.close();
    });

    const newDestination = async (monitorIds: string[] = []) =>
      (
        await api(t, org.apiKey, 'POST', WEBHOOKS, {
          type: 'email',
          name: 'Ops',
          events: ['down', 'recovered'],
          config: { address: 'ops@example.com' },
          monitor_ids: monitorIds,
        })
      ).body as { id: string };
    const stored = async (id: string) => (await api(t, org.apiKey, 'GET', `${WEBHOOKS}/${id}`)).body;
    const validationFields = async (change: Promise<unknown>) => {
      const err = await change.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('validation_failed');
      return ((err as DomainError).details ?? []).map((d) => d.field);
    };

    it('two PATCHes of different fields both land when one commits between the other’s read and write', async () => {
      const monitorId = await createMonitor(t, org.apiKey);
      const { id } = await newDestination();
      // PATCH 1 (name + links) reads the destination, checks its monitor, and waits there while PATCH 2 (events),
      // on the other connection, commits. PATCH 1 must then write onto PATCH 2's row, not onto what it read first.
      afterNextMonitorRead = async () => {
        await destinations.update(elsewhere(), id, { events: ['down'] });
      };
      await destinations.update(here(), id, { name: 'Renamed', monitor_ids: [monitorId] });
      const after = await stored(id);
      expect(after.name).toBe('Renamed');
      expect(after.events).toEqual(['down']);
      expect(after.monitor_ids).toEqual([monitorId]);
    });

    it('a monitor deleted between the check and the link insert: create is 422 on monitor_ids[i] and stores nothing', async () => {
      const kept = await createMonitor(t, org.apiKey);
      const doomed = await createMonitor(t, org.apiKey);
      const before = (await api(t, org.apiKey, 'GET', WEBHOOKS)).body.data.length;
      afterNextMonitorRead = () => t.tocsin.services.monitors.delete(elsewhere(), doomed);
      expect(
        await validationFields(
          destinations.create(here(), {
            type: 'email',
            name: 'Late',
            config: { address: 'late@example.com' },
            monitor_ids: [kept, doomed],
          }),
        ),
      ).toEqual(['monitor_ids[1]']);
      expect((await api(t, org.apiKey, 'GET', WEBHOOKS)).body.data).toHaveLength(before);
    });

    it('a monitor deleted between the check and the link insert: update is 422 on monitor_ids[i] and changes nothing', async () => {
      const kept = await createMonitor(t, org.apiKey);
      const doomed = await createMonitor(t, org.apiKey);
      const { id } = await newDestination([kept]);
      afterNextMonitorRead = () => t.tocsin.services.monitors.delete(elsewhere(), doomed);
      expect(
        await validationFields(destinations.update(here(), id, { name: 'Changed', monitor_ids: [doomed, kept] })),
      ).toEqual(['monitor_ids[0]']);
      const after = await stored(id);
      expect(after.name).toBe('Ops');
      expect(after.monitor_ids).toEqual([kept]);
    });
  });
}
