import { describe, expect, it } from 'vitest';
import { SCOPES, type Actor } from '../auth/index.ts';
import { canChange, canSee, ownerIdOf } from './custom-report.access.ts';
import type { CustomReport, Visibility } from './custom-report.types.ts';

const actor = (o: Partial<Actor>): Actor => ({
  organizationId: 'org_1',
  plan: 'enterprise',
  keyId: 'key_1',
  userId: null,
  serviceAccountId: null,
  role: 'member',
  scopes: new Set(SCOPES),
  environments: ['production'],
  rateLimits: { read: 1, write: 1, delete: 1 },
  ...o,
});

const report = (visibility: Visibility, sharedWithUserIds: string[] = []): CustomReport => ({
  id: 'crp_1',
  organizationId: 'org_1',
  ownerId: 'usr_owner',
  name: 'r',
  period: 'last_7_days',
  timezone: 'UTC',
  widgets: [],
  visibility,
  sharedWithUserIds,
  createdAt: 0,
  updatedAt: 0,
});

const owner = actor({ userId: 'usr_owner' });
const robotMember = actor({ serviceAccountId: 'sac_bot', role: 'member' });
const WHO = {
  owner,
  'shared member': actor({ userId: 'usr_shared' }),
  'other member': actor({ userId: 'usr_member' }),
  admin: actor({ userId: 'usr_admin', role: 'admin' }),
  'admin service account': actor({ serviceAccountId: 'sac_ci', role: 'admin' }),
  'member service account': robotMember,
};

describe('custom report access', () => {
  it.each([
    // visibility, who, sees, may change
    ['private', 'owner', true, true],
    ['private', 'shared member', false, false],
    ['private', 'admin', false, false],
    ['private', 'admin service account', false, false],
    ['organization', 'owner', true, true],
    ['organization', 'other member', true, false],
    ['organization', 'admin', true, true],
    ['organization', 'admin service account', true, true],
    ['organization', 'member service account', true, false],
    ['shared', 'owner', true, true],
    ['shared', 'shared member', true, false],
    ['shared', 'other member', false, false],
    ['shared', 'admin', false, false],
    ['shared', 'admin service account', false, false],
  ] as const)('%s report, %s: sees %s, may change %s', (visibility, who, sees, changes) => {
    const r = report(visibility, ['usr_shared']);
    expect(canSee(WHO[who], r)).toBe(sees);
    expect(canChange(WHO[who], r)).toBe(changes);
  });

  it('a service account owns what its key makes, and may change its own as a member', () => {
    expect(ownerIdOf(robotMember)).toBe('sac_bot');
    expect(ownerIdOf(owner)).toBe('usr_owner');
    expect(canChange(robotMember, { ...report('organization'), ownerId: 'sac_bot' })).toBe(true);
  });
});
