import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorsRepository, OTHER_CONNECTION_CHECK_MS, type Monitor } from '../../src/modules/monitors/index.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { OrgsRepository } from '../../src/modules/orgs/index.ts';
import { newId } from '../../src/platform/ids.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';
import { sampleMonitor } from '../support/monitors.ts';

/**
 * `MonitorsRepository.find` serves SQLite reads from a connection-local cache. Whatever the dialect, a read
 * after any write (through any handle, inside or outside a transaction, or from another connection) must
 * see the write, and a rolled-back write must never be seen.
 */
const T0 = Date.parse('2026-11-22T10:00:00.000Z');
function monitor(organizationId: string, overrides: Partial<Monitor> = {}): Monitor {
  return sampleMonitor(organizationId, T0, overrides);
}

for (const dialect of testDialects()) {
  describe(`${dialect}: monitor reads see every write`, () => {
    let db: TestDatabase;
    let repo: MonitorsRepository;
    let org: string;
    let otherOrg: string;

    async function newOrg(): Promise<string> {
      const id = newId('org', T0);
      await new OrgsRepository(db.database).insertOrganization({
        id,
        name: 'o',
        plan: 'team',
        defaultRegion: 'local',
        emailAlertsEnabled: true,
        createdAt: T0,
        updatedAt: T0,
      });
      return id;
    }

    /** A monitor that has been read once (so cached on SQLite). */
    async function readMonitor(overrides: Partial<Monitor> = {}): Promise<Monitor> {
      const m = monitor(org, overrides);
      await repo.insert(m);
      expect(await repo.find({ organizationId: org }, m.id)).toEqual(m);
      return m;
    }

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      repo = new MonitorsRepository(db.database);
      org = await newOrg();
      otherOrg = await newOrg();
    });
    afterAll(async () => db.drop());

    it('update, status, last-checked, destination ids and delete are seen by the next read', async () => {
      const m = await readMonitor();
      const scope = { organizationId: org };
      await repo.update({ ...m, name: 'renamed', updatedAt: T0 + 1 });
      expect(await repo.find(scope, m.id)).toMatchObject({ name: 'renamed', updatedAt: T0 + 1 });
      await repo.setStatus(m.id, 'down', T0 + 2);
      expect(await repo.find(scope, m.id)).toMatchObject({ status: 'down', statusChangedAt: T0 + 2 });
      await repo.setLastChecked([m.id], T0 + 3);
      expect((await repo.find(scope, m.id))?.lastCheckedAt).toBe(T0 + 3);
      await repo.setAlertDestinationIds(org, m.id, ['dst_1'], T0 + 4);
      expect((await repo.find(scope, m.id))?.config.alert_destination_ids).toEqual(['dst_1']);
      expect(await repo.delete(scope, m.id)).toBe(true);
      expect(await repo.find(scope, m.id)).toBeNull();
    });

    it('a write through another repository of the same connection (the engine builds its own) is seen', async () => {
      const m = await readMonitor();
      await new MonitorsRepository(db.database).setStatus(m.id, 'up', T0 + 5);
      expect((await repo.find({ organizationId: org }, m.id))?.status).toBe('up');
    });

    it('a committed transaction is seen after it commits; a rolled-back one never', async () => {
      const m = await readMonitor();
      const scope = { organizationId: org };
      await db.database.transaction(async (tx) => {
        await new MonitorsRepository(tx).setStatus(m.id, 'down', T0 + 6);
        expect((await new MonitorsRepository(tx).find(scope, m.id))?.status).toBe('down');
      });
      expect((await repo.find(scope, m.id))?.status).toBe('down');

      await expect(
        db.database.transaction(async (tx) => {
          await new MonitorsRepository(tx).update({ ...m, name: 'never', updatedAt: T0 + 7 });
          // A read inside the transaction sees its own write and must not leave it behind in the cache.
          expect((await new MonitorsRepository(tx).find(scope, m.id))?.name).toBe('never');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await repo.find(scope, m.id))?.name).toBe(m.name);
    });

    it('a read racing a transaction waits for it rather than answering from before it', async () => {
      const m = await readMonitor();
      const scope = { organizationId: org };
      let reading: Promise<Monitor | null> | undefined;
      await db.database.transaction(async (tx) => {
        await new MonitorsRepository(tx).setStatus(m.id, 'down', T0 + 8);
        reading = repo.find(scope, m.id);
      });
      // On SQLite the read went through the connection's queue, behind the transaction; on PostgreSQL it
      // ran on another connection and saw the committed state before or after: either way never a stale cache.
      const seen = await reading!;
      if (dialect === 'sqlite') expect(seen?.status).toBe('down');
      expect((await repo.find(scope, m.id))?.status).toBe('down');
    });

    it('a write by another connection to the same database (another process) is seen', async () => {
      const m = await readMonitor();
      const other = new MonitorsRepository(db.reopen());
      await other.update({ ...m, name: 'from elsewhere', updatedAt: T0 + 9 });
      expect((await repo.find({ organizationId: org }, m.id))?.name).toBe('from elsewhere');
      await other.setLastChecked([m.id], T0 + 10);
      expect((await repo.find({ organizationId: org }, m.id))?.lastCheckedAt).toBe(T0 + 10);
    });

    it('with a clock (as the service has): writes on this connection are seen at once, on another within 100 ms', async () => {
      const clock = new ManualClock(T0);
      const clocked = new MonitorsRepository(db.database, { clock });
      const scope = { organizationId: org };
      const m = monitor(org);
      await clocked.insert(m);
      expect(await clocked.find(scope, m.id)).toEqual(m);
      await new MonitorsRepository(db.database).setStatus(m.id, 'down', T0 + 11);
      expect((await clocked.find(scope, m.id))?.status).toBe('down');
      await new MonitorsRepository(db.reopen()).update({
        ...m,
        status: 'down',
        name: 'from elsewhere',
        updatedAt: T0 + 12,
      });
      clock.advance(OTHER_CONNECTION_CHECK_MS);
      expect((await clocked.find(scope, m.id))?.name).toBe('from elsewhere');
    });

    it('scoping still applies to a monitor read before: other organization, other environment', async () => {
      const m = await readMonitor({ environment: 'staging' });
      expect(await repo.find({ organizationId: otherOrg }, m.id)).toBeNull();
      expect(await repo.find({ organizationId: org, environments: ['production'] }, m.id)).toBeNull();
      expect(await repo.find({ organizationId: org, environments: ['staging'] }, m.id)).toMatchObject({ id: m.id });
    });

    it('a monitor shared by the cache cannot be modified by a caller', async () => {
      const m = await readMonitor();
      const found = (await repo.find({ organizationId: org }, m.id))!;
      if (dialect === 'sqlite') {
        expect(Object.isFrozen(found) && Object.isFrozen(found.config) && Object.isFrozen(found.tags)).toBe(true);
        expect(() => {
          (found.config as { timeout_ms: number }).timeout_ms = 1;
        }).toThrow(TypeError);
      }
      expect((await repo.find({ organizationId: org }, m.id))?.config.timeout_ms).toBe(10_000);
    });
  });
}
