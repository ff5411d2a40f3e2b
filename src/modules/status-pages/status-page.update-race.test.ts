import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ManualClock, type TestApp, type TestOrg } from '../../../test/support/app.ts';
import { testDialects } from '../../../test/support/databases.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Actor, ServiceContext } from '../auth/index.ts';
import type { Monitor, MonitorsService } from '../monitors/index.ts';
import { Plans } from '../orgs/index.ts';
import { StatusPagesService } from './status-page.service.ts';
import { StatusAvailability } from '../reports/index.ts';

/**
 * A status page update racing another write that commits between the update's read and its transaction (another
 * PATCH, or a monitor of the page deleted), on a second connection. The page's monitors are read through a hook
 * that runs once, right after the update has read the page, so the interleaving is exact.
 */
for (const dialect of testDialects()) {
  describe(`status page update racing other writes (${dialect})`, () => {
    let t: TestApp;
    let org: TestOrg;
    let actor: Actor;
    let other: Database;
    let pages: StatusPagesService;
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
      hooked.findManyAnywhere = async (ids, db): Promise<Monitor[]> => {
        const found = await real.findManyAnywhere(ids, db);
        const hook = afterNextMonitorRead;
        afterNextMonitorRead = null;
        await hook?.();
        return found;
      };
      pages = new StatusPagesService({
        database: t.tocsin.database,
        clock: t.clock,
        plans: new Plans(t.config.plans),
        monitors: hooked,
        incidents: t.tocsin.services.incidents,
        uptime: t.tocsin.services.rollups,
        availability: new StatusAvailability({ database: t.tocsin.database }),
        lockOrganization: (tx, organizationId) => t.tocsin.services.orgs.lockOrganization(tx, organizationId),
        pageSessionKey: Buffer.alloc(32, 7),
      });
    });
    afterAll(async () => {
      await t.close();
    });

    let n = 0;
    const newMonitor = async () =>
      (await t.tocsin.services.monitors.create(here(), { name: `M${++n}`, target: `https://m${n}.example.com/` })).id;
    const newPage = async (monitorIds: string[]) =>
      (
        await t.tocsin.services.statusPages.create(here(), {
          slug: `page-${++n}`,
          title: 'Shop',
          monitor_ids: monitorIds,
          public: true,
        })
      ).id;
    const stored = (id: string) => t.tocsin.services.statusPages.get(here(), id);

    it('two PATCHes of different fields both land when one commits between the other’s read and write', async () => {
      const id = await newPage([await newMonitor()]);
      afterNextMonitorRead = async () => {
        await t.tocsin.services.statusPages.update(elsewhere(), id, { public: false });
      };
      await pages.update(here(), id, { title: 'Shop (EU)' });
      const after = await stored(id);
      expect(after.title).toBe('Shop (EU)');
      expect(after.public).toBe(false);
    });

    it('a monitor deleted while the update is validated does not come back on the page', async () => {
      const kept = await newMonitor();
      const doomed = await newMonitor();
      const id = await newPage([kept, doomed]);
      afterNextMonitorRead = () => t.tocsin.services.monitors.delete(elsewhere(), doomed);
      await pages.update(here(), id, { title: 'Shop (EU)' });
      const after = await stored(id);
      expect(after.title).toBe('Shop (EU)');
      expect(after.monitorIds).toEqual([kept]);
    });
  });
}
