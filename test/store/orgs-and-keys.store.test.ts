import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/modules/auth/index.ts';
import { OrgsRepository, type Organization, type User } from '../../src/modules/orgs/index.ts';
import { newId } from '../../src/platform/ids.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/databases.ts';

// Times beyond 2^31 and 2^32 ms check that bigint columns come back as exact JS numbers.
const T0 = Date.parse('2026-11-22T10:00:00.123Z');

function org(overrides: Partial<Organization> = {}): Organization {
  return {
    id: newId('org', T0),
    name: 'Acme',
    plan: 'team',
    defaultRegion: 'eu-west',
    emailAlertsEnabled: true,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

function user(overrides: Partial<User> = {}): User {
  return {
    id: newId('usr', T0),
    email: `${newId('usr')}@example.com`,
    name: null,
    emailVerifiedAt: null,
    createdAt: T0,
    ...overrides,
  };
}

for (const dialect of testDialects()) {
  describe(`${dialect}: orgs repository`, () => {
    let db: TestDatabase;
    let repo: OrgsRepository;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      repo = new OrgsRepository(db.database);
    });
    afterAll(async () => db.drop());

    it('inserts and finds an organization with every field', async () => {
      const o = org({ emailAlertsEnabled: false });
      await repo.insertOrganization(o);
      expect(await repo.findOrganization(o.id)).toEqual(o);
      expect(await repo.findOrganization(newId('org'))).toBeNull();
    });

    it('lists organizations in id order', async () => {
      const a = org({ id: newId('org', T0 + 1000), name: 'A' });
      const b = org({ id: newId('org', T0 + 2000), name: 'B' });
      await repo.insertOrganization(b);
      await repo.insertOrganization(a);
      const ids = (await repo.listOrganizations()).map((o) => o.id);
      expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
      expect([...ids].sort()).toEqual(ids);
    });

    it('updates plan, name, region and email alerts; reports a missing id', async () => {
      const o = org();
      await repo.insertOrganization(o);
      expect(
        await repo.updateOrganization(
          o.id,
          { plan: 'enterprise', name: 'Acme 2', defaultRegion: 'us-east', emailAlertsEnabled: false },
          T0 + 5,
        ),
      ).toBe(true);
      expect(await repo.findOrganization(o.id)).toEqual({
        ...o,
        plan: 'enterprise',
        name: 'Acme 2',
        defaultRegion: 'us-east',
        emailAlertsEnabled: false,
        updatedAt: T0 + 5,
      });
      expect(await repo.updateOrganization(o.id, { plan: 'free' }, T0 + 6)).toBe(true);
      expect(await repo.findOrganization(o.id)).toMatchObject({ plan: 'free', name: 'Acme 2', updatedAt: T0 + 6 });
      expect(await repo.updateOrganization(newId('org'), { plan: 'free' }, T0)).toBe(false);
    });

    it('inserts users, finds them by id and email, and keeps emails unique', async () => {
      const u = user({ name: 'Ada', emailVerifiedAt: T0 + 1 });
      await repo.insertUser(u);
      expect(await repo.findUser(u.id)).toEqual(u);
      expect(await repo.findUserByEmail(u.email)).toEqual(u);
      expect(await repo.findUserByEmail('nobody@example.com')).toBeNull();
      await expect(repo.insertUser(user({ email: u.email }))).rejects.toThrow();
    });

    it('marks an email verified', async () => {
      const u = user();
      await repo.insertUser(u);
      await repo.setUserEmailVerified(u.id, T0 + 99);
      expect((await repo.findUser(u.id))?.emailVerifiedAt).toBe(T0 + 99);
    });

    it('stores memberships and lists members oldest first with their users', async () => {
      const o = org();
      await repo.insertOrganization(o);
      const owner = user({ name: 'Owner' });
      const member = user({ name: 'Member' });
      await repo.insertUser(owner);
      await repo.insertUser(member);
      await repo.insertMembership({ organizationId: o.id, userId: member.id, role: 'member', createdAt: T0 + 10 });
      await repo.insertMembership({ organizationId: o.id, userId: owner.id, role: 'owner', createdAt: T0 });
      expect(await repo.findMembership(o.id, owner.id)).toEqual({
        organizationId: o.id,
        userId: owner.id,
        role: 'owner',
        createdAt: T0,
      });
      expect(await repo.findMembership(o.id, newId('usr'))).toBeNull();
      expect(await repo.listMembers(o.id)).toEqual([
        { user: owner, role: 'owner' },
        { user: member, role: 'member' },
      ]);
      expect(await repo.listMembers(newId('org'))).toEqual([]);
      await expect(
        repo.insertMembership({ organizationId: o.id, userId: owner.id, role: 'admin', createdAt: T0 }),
      ).rejects.toThrow();
    });

    it('refuses a membership of an organization that does not exist (foreign key)', async () => {
      const u = user();
      await repo.insertUser(u);
      await expect(
        repo.insertMembership({ organizationId: newId('org'), userId: u.id, role: 'owner', createdAt: T0 }),
      ).rejects.toThrow();
    });
  });

  describe(`${dialect}: api keys repository`, () => {
    let db: TestDatabase;
    let orgs: OrgsRepository;
    let keys: ApiKeysRepository;
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      orgs = new OrgsRepository(db.database);
      keys = new ApiKeysRepository(db.database);
    });
    afterAll(async () => db.drop());

    async function setup(plan: Organization['plan'] = 'team') {
      const o = org({ plan });
      const u = user();
      await orgs.insertOrganization(o);
      await orgs.insertUser(u);
      await orgs.insertMembership({ organizationId: o.id, userId: u.id, role: 'admin', createdAt: T0 });
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
      const stranger = user();
      await orgs.insertUser(stranger);
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
