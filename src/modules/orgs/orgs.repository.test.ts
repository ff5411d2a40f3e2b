import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialects, type TestDatabase } from '../../../test/support/databases.ts';
import { newId } from '../../platform/ids.ts';
import { OrgsRepository } from './orgs.repository.ts';
import type { Organization, User } from './orgs.types.ts';

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
}
