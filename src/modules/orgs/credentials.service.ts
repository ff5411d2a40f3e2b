import type { PlanName } from '../../config/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError, notFound, validationFailed } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import { CredentialsRepository } from './credentials.repository.ts';
import type { AuditTrail } from '../audit/index.ts';
import { OrgsRepository } from './orgs.repository.ts';
import { hashToken, normalizeEmail } from './orgs.service.ts';
import type { Organization, Role, User } from './orgs.types.ts';

export interface CredentialsDeps {
  database: Database;
  clock: Clock;
  defaultPlan: PlanName;
  defaultRegion: string;
}

/** What an invitation's link shows before it is accepted (GET lookup: it accepts nothing). */
export interface InvitationPreview {
  organizationName: string;
  email: string;
  role: Role;
  /** The user who already has the address, or null (accepting then creates one). */
  existingUserId: string | null;
}

/** What accepting an invitation made. */
export interface AcceptedInvitation {
  user: User;
  organization: Organization;
  role: Role;
}

const HOUR_MS = 3_600_000;

function invalidLink(what: string): DomainError {
  return new DomainError(
    'invalid_token',
    `This ${what} link is unknown, already used, replaced by a newer one or expired. Ask for a new one.`,
    [{ field: 'token', issue: 'is unknown, used or expired' }],
  );
}

/**
 * The people side of signing in, over the orgs module's tables: the first-run organization and owner, password
 * hashes (computed by the caller: this module stores strings), password reset links and invitation links.
 */
export class CredentialsService {
  private readonly deps: CredentialsDeps;
  constructor(deps: CredentialsDeps) {
    this.deps = deps;
  }

  /** True while no organization exists (a fresh install). */
  async setupNeeded(): Promise<boolean> {
    return !(await new CredentialsRepository(this.deps.database).anyOrganization());
  }

  /**
   * Creates the first organization (default plan and region) and its owner with a password and a verified
   * address, in one transaction; 409 `already_set_up` once any organization exists (also for two at once).
   */
  async setup(
    input: {
      organizationName: string;
      name: string;
      email: string;
      passwordHash: string;
    },
    db: Database = this.deps.database,
  ): Promise<{ organization: Organization; user: User }> {
    const email = normalizeEmail(input.email);
    const now = this.deps.clock.now();
    return db.transaction(async (tx) => {
      const credentials = new CredentialsRepository(tx);
      await credentials.lockForSetup();
      if (await credentials.anyOrganization())
        throw new DomainError('already_set_up', 'This Tocsin is already set up; sign in instead.');
      const orgs = new OrgsRepository(tx);
      const organization: Organization = {
        id: newId('org', now),
        name: input.organizationName,
        plan: this.deps.defaultPlan,
        defaultRegion: this.deps.defaultRegion,
        emailAlertsEnabled: true,
        createdAt: now,
        updatedAt: now,
      };
      await orgs.insertOrganization(organization);
      let user = await orgs.findUserByEmail(email);
      if (!user) {
        user = { id: newId('usr', now), email, name: input.name, emailVerifiedAt: now, createdAt: now };
        await orgs.insertUser(user);
      }
      await orgs.setUserEmailVerifiedIfNot(user.id, now);
      await credentials.setPasswordHash(user.id, input.passwordHash);
      await orgs.insertMembership({ organizationId: organization.id, userId: user.id, role: 'owner', createdAt: now });
      return { organization, user: (await orgs.findUser(user.id))! };
    });
  }

  /** The user id and password hash for a sign-in address; null for an address nobody has (or not an address). */
  async findCredentials(rawEmail: string): Promise<{ userId: string; passwordHash: string | null } | null> {
    const email = rawEmail.trim().toLowerCase();
    return new CredentialsRepository(this.deps.database).findCredentials(email);
  }

  passwordHashOf(userId: string): Promise<string | null> {
    return new CredentialsRepository(this.deps.database).passwordHashOf(userId);
  }

  /** The user's memberships, oldest first (a session acts in one of them). */
  membershipsOf(
    userId: string,
    db: Database = this.deps.database,
  ): Promise<Array<{ organizationId: string; role: Role }>> {
    return new CredentialsRepository(db).membershipsOf(userId);
  }

  /** A one-time password reset token for the user (only its hash is stored), valid for `ttlMs`. */
  async createPasswordReset(userId: string, ttlMs = HOUR_MS): Promise<string> {
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await new CredentialsRepository(this.deps.database).insertPasswordReset({
      tokenHash: hashToken(token),
      userId,
      expiresAt: now + ttlMs,
      createdAt: now,
    });
    return token;
  }

  /**
   * Uses a reset link: sets the new password, ends every other reset link of the user and verifies the address
   * (the mailed link proves it), in one transaction; `then` runs in it (ending sessions). Returns the user id.
   */
  async resetPassword(token: string, passwordHash: string, then: (tx: Database, userId: string) => Promise<void>) {
    const now = this.deps.clock.now();
    return this.deps.database.transaction(async (tx) => {
      const credentials = new CredentialsRepository(tx);
      const userId = await credentials.usePasswordReset(hashToken(token), now);
      if (!userId) throw invalidLink('password reset');
      await credentials.setPasswordHash(userId, passwordHash);
      await credentials.usePasswordResetsOf(userId, now);
      await new OrgsRepository(tx).setUserEmailVerifiedIfNot(userId, now);
      await then(tx, userId);
      return userId;
    });
  }

  /** What an invitation link offers, without using it; 400 `invalid_token` when it is unknown, used or expired. */
  async lookupInvitation(token: string): Promise<InvitationPreview> {
    const row = await new CredentialsRepository(this.deps.database).findInvitationByTokenHash(
      hashToken(token),
      this.deps.clock.now(),
    );
    if (!row) throw invalidLink('invitation');
    const existing = await new OrgsRepository(this.deps.database).findUserByEmail(row.email);
    return {
      organizationName: row.organization_name,
      email: row.email,
      role: row.role as Role,
      existingUserId: existing?.id ?? null,
    };
  }

  /**
   * Accepts an invitation in one transaction: the link is used up, the membership made with the role sent and
   * the address verified. `expectedUserId` is the user the caller checked the password of (null: a new user is
   * created with `newUser`); if that changed meanwhile (the address got a user), nothing happens: 409.
   */
  async acceptInvitation(
    token: string,
    expectedUserId: string | null,
    newUser: { name: string | null; passwordHash: string | null },
    db: Database = this.deps.database,
  ): Promise<AcceptedInvitation> {
    const now = this.deps.clock.now();
    return db.transaction(async (tx) => {
      const orgs = new OrgsRepository(tx);
      const invitation = await orgs.takeInvitation(hashToken(token), now);
      if (!invitation) throw invalidLink('invitation');
      const existing = await orgs.findUserByEmail(invitation.email);
      if ((existing?.id ?? null) !== expectedUserId)
        throw new DomainError('conflict', 'The invited address changed hands meanwhile; open the link again.');
      let userId = existing?.id;
      if (!userId) {
        if (newUser.passwordHash === null) throw validationFailed([{ field: 'password', issue: 'is required' }]);
        userId = newId('usr', now);
        // Another transaction may create a user with this address at the same moment: then nothing is made here.
        await orgs.insertUserIfAbsent({
          id: userId,
          email: invitation.email,
          name: newUser.name ?? invitation.name,
          emailVerifiedAt: now,
          createdAt: now,
        });
        if ((await orgs.findUserByEmail(invitation.email))?.id !== userId)
          throw new DomainError('conflict', 'The invited address changed hands meanwhile; open the link again.');
        await new CredentialsRepository(tx).setPasswordHash(userId, newUser.passwordHash);
      }
      await orgs.setUserEmailVerifiedIfNot(userId, now);
      await orgs.insertMembershipIfAbsent({
        organizationId: invitation.organizationId,
        userId,
        role: invitation.role,
        createdAt: now,
      });
      const organization = await orgs.findOrganization(invitation.organizationId);
      const membership = await orgs.findMembership(invitation.organizationId, userId);
      if (!organization || !membership) throw notFound('Organization');
      return { user: (await orgs.findUser(userId))!, organization, role: membership.role };
    });
  }

  /**
   * Changes a member's role (owner/admin; only an owner grants or takes away `owner`; the last owner stays one),
   * in one transaction with the organization row locked.
   */
  async changeRole(
    actor: { organizationId: string; role: Role },
    userId: string,
    role: Role,
    audit?: AuditTrail,
  ): Promise<{ user: User; role: Role }> {
    if (actor.role !== 'owner' && actor.role !== 'admin')
      throw new DomainError('forbidden', 'Changing roles is for the organization owner or an admin.');
    return this.deps.database.transaction(async (tx) => {
      const orgs = new OrgsRepository(tx);
      const credentials = new CredentialsRepository(tx);
      await orgs.lockOrganization(actor.organizationId);
      const membership = await orgs.findMembership(actor.organizationId, userId);
      const user = membership ? await orgs.findUser(userId) : null;
      if (!membership || !user) throw notFound('Member');
      if ((role === 'owner' || membership.role === 'owner') && actor.role !== 'owner' && role !== membership.role)
        throw validationFailed([{ field: 'role', issue: 'only an owner may make or unmake an owner' }]);
      if (membership.role === 'owner' && role !== 'owner' && (await credentials.countOwners(actor.organizationId)) <= 1)
        throw validationFailed([{ field: 'role', issue: 'the organization needs at least one owner' }]);
      await credentials.setRole(actor.organizationId, userId, role);
      await audit?.record(tx, {
        organizationId: actor.organizationId,
        action: 'member.role_change',
        target: { type: 'user', id: userId },
        changes: membership.role === role ? {} : { role: [membership.role, role] },
      });
      return { user, role };
    });
  }
}

/** Builds the credentials service (first run, passwords, reset and invitation links) over `database`. */
export function createCredentials(deps: CredentialsDeps): CredentialsService {
  return new CredentialsService(deps);
}
