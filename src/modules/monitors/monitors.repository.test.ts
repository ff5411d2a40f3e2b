import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { sampleMonitor } from '../../../test/support/monitors.ts';
import { ManualClock } from '../../platform/clock.ts';
import { PrecompiledQueries } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { createOrgs } from '../orgs/index.ts';
import { MonitorsRepository } from './monitors.repository.ts';
import type { Monitor } from './monitor.types.ts';

const T0 = Date.parse('2026-11-22T10:00:00.123Z');
function monitor(organizationId: string, overrides: Partial<Monitor> = {}): Monitor {
  return sampleMonitor(organizationId, T0, overrides);
}

for (const dialect of testDialects()) {
  describe(`${dialect}: monitors repository`, () => {
    let db: TestDatabase;
    let repo: MonitorsRepository;
    let orgA: string;
    let orgB: string;

    async function newOrg(): Promise<string> {
      const orgs = createOrgs({
        database: db.database,
        clock: new ManualClock(T0),
        defaultPlan: 'team',
        defaultRegion: 'local',
      });
      return (await orgs.createOrganization({ name: 'o' })).id;
    }

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      repo = new MonitorsRepository(db.database);
      orgA = await newOrg();
      orgB = await newOrg();
    });
    afterAll(async () => db.drop());

    it('inserts and finds a monitor with every field intact', async () => {
      const m = monitor(orgA, {
        tags: ['a', 'b c'],
        regionCodes: ['eu-west', 'us-east'],
        lastCheckedAt: T0 + 5,
        paused: true,
        status: 'paused',
      });
      await repo.insert(m);
      expect(await repo.find({ organizationId: orgA }, m.id)).toEqual(m);
      expect(await repo.findAnywhere(m.id)).toEqual(m);
    });

    it('scopes find by organization and by environments', async () => {
      const m = monitor(orgA, { environment: 'staging' });
      await repo.insert(m);
      expect(await repo.find({ organizationId: orgB }, m.id)).toBeNull();
      expect(await repo.find({ organizationId: orgA, environments: ['production'] }, m.id)).toBeNull();
      expect(await repo.find({ organizationId: orgA, environments: ['production', 'staging'] }, m.id)).not.toBeNull();
      expect(await repo.find({ organizationId: orgA }, newId('mon'))).toBeNull();
    });

    it('updates every mutable field but never moves a monitor between organizations', async () => {
      const m = monitor(orgA);
      await repo.insert(m);
      const changed: Monitor = {
        ...m,
        name: 'Renamed',
        target: 'https://changed.example.com',
        intervalSeconds: 30,
        regionCodes: ['us-east'],
        tags: ['x'],
        environment: 'staging',
        config: { ...m.config, timeout_ms: 5000 },
        paused: true,
        status: 'paused',
        statusChangedAt: T0 + 100,
        lastCheckedAt: T0 + 50,
        updatedAt: T0 + 100,
      };
      await repo.update(changed);
      expect(await repo.find({ organizationId: orgA }, m.id)).toEqual(changed);
      await repo.update({ ...changed, organizationId: orgB, name: 'hijack' });
      expect((await repo.find({ organizationId: orgA }, m.id))?.name).toBe('Renamed');
      expect(await repo.find({ organizationId: orgB }, m.id)).toBeNull();
    });

    it('deletes only within the organization', async () => {
      const m = monitor(orgA);
      await repo.insert(m);
      expect(await repo.delete({ organizationId: orgB }, m.id)).toBe(false);
      expect(await repo.findAnywhere(m.id)).not.toBeNull();
      expect(await repo.delete({ organizationId: orgA }, m.id)).toBe(true);
      expect(await repo.findAnywhere(m.id)).toBeNull();
      expect(await repo.delete({ organizationId: orgA }, m.id)).toBe(false);
    });

    it('counts per organization', async () => {
      const org = await newOrg();
      expect(await repo.count(org)).toBe(0);
      await repo.insert(monitor(org));
      await repo.insert(monitor(org, { environment: 'staging' }));
      expect(await repo.count(org)).toBe(2);
    });

    it('finds by heartbeat token and finds many by id', async () => {
      const token = `tok_${newId('mon')}`;
      const hb = monitor(orgA, {
        type: 'heartbeat',
        heartbeatToken: token,
        target: `http://x/api/v1/heartbeats/${token}`,
      });
      const other = monitor(orgB);
      await repo.insert(hb);
      await repo.insert(other);
      const found = await repo.findByHeartbeatTokens([token, 'nope'], new PrecompiledQueries());
      expect([...found.keys()]).toEqual([token]);
      expect(found.get(token)?.id).toBe(hb.id);
      expect((await repo.findManyAnywhere([hb.id, other.id, newId('mon')])).map((m) => m.id).sort()).toEqual(
        [hb.id, other.id].sort(),
      );
      expect(await repo.findManyAnywhere([])).toEqual([]);
      await expect(repo.insert(monitor(orgA, { heartbeatToken: token }))).rejects.toThrow();
    });

    it('refuses a monitor of an organization that does not exist (foreign key)', async () => {
      await expect(repo.insert(monitor(newId('org')))).rejects.toThrow();
    });

    describe('list', () => {
      let org: string;
      let all: Monitor[];
      beforeAll(async () => {
        org = await newOrg();
        all = [
          monitor(org, { name: 'Shop API', target: 'https://shop.example.com', tags: ['prod', 'team:shop'] }),
          monitor(org, { name: 'Blog', target: 'https://blog.example.com', tags: ['Prod'], status: 'up' }),
          monitor(org, {
            name: 'db_primary',
            type: 'tcp',
            target: 'db.internal:5432',
            tags: ['prod_db'],
            status: 'down',
          }),
          monitor(org, { name: 'dbXprimary', type: 'tcp', target: 'db2.internal:5432', environment: 'staging' }),
          monitor(org, { name: '100% Uptime', target: 'https://pct.example.com', paused: true, status: 'paused' }),
          monitor(org, { name: 'CERT', type: 'tls', target: 'shop.example.com:443', tags: ['a b'] }),
        ];
        for (const m of all) await repo.insert(m);
        await repo.insert(monitor(orgB, { name: 'Shop API of B' }));
      });
      const ids = (ms: Monitor[]) => ms.map((m) => m.id);
      const list = (filter: Parameters<MonitorsRepository['list']>[1], environments?: string[]) =>
        repo.list({ organizationId: org, ...(environments && { environments }) }, filter, undefined, 100);

      it('lists the organization in id order', async () => {
        expect(ids(await list({}))).toEqual(ids(all));
      });

      it('filters by environment scope and by environment', async () => {
        expect(ids(await list({}, ['production']))).toEqual(ids(all.filter((m) => m.environment === 'production')));
        expect(ids(await list({ environment: 'staging' }))).toEqual([all[3]!.id]);
        expect(ids(await list({ environment: 'staging' }, ['production']))).toEqual([]);
      });

      it('filters by status and type', async () => {
        expect(ids(await list({ status: 'down' }))).toEqual([all[2]!.id]);
        expect(ids(await list({ status: 'paused' }))).toEqual([all[4]!.id]);
        expect(ids(await list({ type: 'tcp' }))).toEqual([all[2]!.id, all[3]!.id]);
        expect(ids(await list({ type: 'tcp', status: 'down' }))).toEqual([all[2]!.id]);
      });

      it('matches a tag exactly and case-sensitively, never a part of another tag', async () => {
        expect(ids(await list({ tag: 'prod' }))).toEqual([all[0]!.id]);
        expect(ids(await list({ tag: 'Prod' }))).toEqual([all[1]!.id]);
        expect(ids(await list({ tag: 'prod_db' }))).toEqual([all[2]!.id]);
        expect(ids(await list({ tag: 'team:shop' }))).toEqual([all[0]!.id]);
        expect(ids(await list({ tag: 'a b' }))).toEqual([all[5]!.id]);
        expect(ids(await list({ tag: 'pro' }))).toEqual([]);
      });

      it('searches name and target case-insensitively, treating % and _ literally', async () => {
        expect(ids(await list({ q: 'shop' }))).toEqual([all[0]!.id, all[5]!.id]);
        expect(ids(await list({ q: 'BLOG' }))).toEqual([all[1]!.id]);
        expect(ids(await list({ q: 'db_' }))).toEqual([all[2]!.id]);
        expect(ids(await list({ q: '100%' }))).toEqual([all[4]!.id]);
        expect(ids(await list({ q: '%' }))).toEqual([all[4]!.id]);
        expect(ids(await list({ q: 'internal:5432' }))).toEqual([all[2]!.id, all[3]!.id]);
        expect(ids(await list({ q: 'nothing-like-this' }))).toEqual([]);
        expect(ids(await list({ q: 'shop', type: 'tls' }))).toEqual([all[5]!.id]);
      });

      it('pages with limit + 1 rows after a cursor id', async () => {
        const scope = { organizationId: org };
        const first = await repo.list(scope, {}, undefined, 2);
        expect(ids(first)).toEqual(ids(all.slice(0, 3)));
        const second = await repo.list(scope, {}, { keys: [], id: all[1]!.id }, 2);
        expect(ids(second)).toEqual(ids(all.slice(2, 5)));
        const last = await repo.list(scope, {}, { keys: [], id: all[4]!.id }, 2);
        expect(ids(last)).toEqual([all[5]!.id]);
      });

      it('lists active (unpaused) monitors of every organization in pages', async () => {
        const active = await repo.listActive(undefined, 10_000);
        expect(active.every((m) => !m.paused)).toBe(true);
        expect(ids(active)).toContain(all[0]!.id);
        expect(ids(active)).not.toContain(all[4]!.id);
        const page = await repo.listActive(all[0]!.id, 2);
        expect(page).toHaveLength(2);
        expect(page.every((m) => m.id > all[0]!.id)).toBe(true);
      });
    });

    it('records status changes only when the status differs, and last-checked times', async () => {
      const m = monitor(orgA);
      await repo.insert(m);
      await repo.setStatus(m.id, 'up', T0 + 1000);
      expect(await repo.findAnywhere(m.id)).toMatchObject({
        status: 'up',
        statusChangedAt: T0 + 1000,
        updatedAt: T0 + 1000,
      });
      await repo.setStatus(m.id, 'up', T0 + 2000);
      expect(await repo.findAnywhere(m.id)).toMatchObject({ status: 'up', statusChangedAt: T0 + 1000 });
      const n = monitor(orgA);
      await repo.insert(n);
      await repo.setLastChecked([m.id, n.id], T0 + 3000);
      expect((await repo.findAnywhere(m.id))?.lastCheckedAt).toBe(T0 + 3000);
      expect((await repo.findAnywhere(n.id))?.lastCheckedAt).toBe(T0 + 3000);
      await repo.setLastChecked([], T0);
    });

    it('sees data written through another handle (second process)', async () => {
      const other = new MonitorsRepository(db.reopen());
      const m = monitor(orgA);
      await other.insert(m);
      expect(await repo.findAnywhere(m.id)).toEqual(m);
    });
  });
}
