import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import type { PlanName } from '../../config/index.ts';
import { ManualClock } from '../../platform/clock.ts';
import { newId } from '../../platform/ids.ts';
import { createOrgs, type OrgsService } from '../orgs/index.ts';
import { ApiKeysRepository } from './api-keys.repository.ts';

// Times beyond 2^31 and 2^32 ms check that bigint columns come back as exact JS numbers.
const T0 = Date.parse('2026-11-22T10:00:00.123Z');

for (const dialect of testDialects()) {
  describe(`${dialect}: api keys repository`, () => {
    let db: TestDatabase;
    let orgs: OrgsService;
    let keys: ApiKeysRepository;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      orgs = createOrgs({
        database: db.database,
        clock: new ManualClock(T0),
        defaultPlan: 'team',
        defaultRegion: 'local',
      });
      keys = new ApiKeysRepository(db.database);
    });
    afterAll(async () => db.drop());

    async function setup(plan: PlanName = 'team') {
      const o = await orgs.createOrganization({ name: 'Acme', plan });
      const u = await orgs.ensureUser({ email: `${newId('usr')}@example.com` });
      await orgs.addMember(o.id, u.id, 'admin');
      return { o, u };
    }

    function keyRow(organizationId: string, userId: string | null, hash: string) {
      return {
        id: newId('key', T0),
        organization_id: organizationId,
        name: 'ci',
        prefix: 'tsk_abcd',
        hash,
        previous_hash: null as string | null,
        previous_valid_until: null as number | null,
        scopes: JSON.stringify(['monitors:read']),
        environments: JSON.stringify(['production']),
        expires_at: T0 + 86_400_000,
        read_per_minute: 600,
        write_per_minute: 120,
        delete_per_minute: 60,
        created_by: userId,
        user_id: userId,
        service_account_id: null as string | null,
        last_used_at: null as number | null,
        revoked_at: null as number | null,
        created_at: T0,
        updated_at: T0,
      };
    }

    it('inserts a key and finds it by hash with the plan and the owner role', async () => {
      const { o, u } = await setup('enterprise');
      const row = keyRow(o.id, u.id, `h-${newId('key')}`);
      await keys.insert(row);
      const found = await keys.findByHash(row.hash);
      expect(found).toEqual({ key: row, plan: 'enterprise', role: 'admin', viaPrevious: false });
      expect(await keys.findByHash('no-such-hash')).toBeNull();
    });

    it('finds a key by its previous hash during a rotation', async () => {
      const { o, u } = await setup();
      const row = {
        ...keyRow(o.id, u.id, `h-${newId('key')}`),
        previous_hash: `p-${newId('key')}`,
        previous_valid_until: T0 + 1000,
      };
      await keys.insert(row);
      expect(await keys.findByHash(row.previous_hash)).toMatchObject({ key: { id: row.id }, viaPrevious: true });
    });

    it('gives a null role to a key whose user is not a member, and to a service-account key', async () => {
      const { o } = await setup();
      const stranger = await orgs.ensureUser({ email: `${newId('usr')}@example.com` });
      const row = keyRow(o.id, stranger.id, `h-${newId('key')}`);
      await keys.insert(row);
      expect((await keys.findByHash(row.hash))?.role).toBeNull();
      const sa = { ...keyRow(o.id, null, `h-${newId('key')}`), service_account_id: 'sac_x' };
      await keys.insert(sa);
      expect(await keys.findByHash(sa.hash)).toMatchObject({ role: null, key: { service_account_id: 'sac_x' } });
    });

    it('finds a key by id only within its organization', async () => {
      const { o, u } = await setup();
      const other = await setup();
      const row = keyRow(o.id, u.id, `h-${newId('key')}`);
      await keys.insert(row);
      expect(await keys.findById(o.id, row.id)).toEqual(row);
      expect(await keys.findById(other.o.id, row.id)).toBeNull();
    });

    it('keeps hashes unique', async () => {
      const { o, u } = await setup();
      const row = keyRow(o.id, u.id, `h-${newId('key')}`);
      await keys.insert(row);
      await expect(keys.insert({ ...row, id: newId('key') })).rejects.toThrow();
    });
  });
}
