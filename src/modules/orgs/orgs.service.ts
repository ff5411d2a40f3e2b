import { resourceChange, type AuditTrail } from '../audit/index.ts';
import { createHash } from 'node:crypto';
import type { PlanName } from '../../config/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { DomainError, notFound } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import type { Database } from '../../platform/db/index.ts';
import { OrgsRepository } from './orgs.repository.ts';
import type { Invitation, Membership, Organization, Role, User } from './orgs.types.ts';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const WEEK_MS = 7 * 24 * 3_600_000;

/** Lower-cased and trimmed; a validation error on `email` when it is not an address. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new DomainError('validation_failed', 'The email address is not valid.', [
      { field: 'email', issue: 'must be an email address' },
    ]);
  }
  return email;
}

/** An invitation and the one-time token of its link (only the token's hash is stored). */
export interface IssuedInvitation {
  invitation: Invitation;
  token: string;
}

export interface OrgsServiceDeps {
  database: Database;
  repository: OrgsRepository;
  clock: Clock;
  defaultPlan: PlanName;
  defaultRegion: string;
}

export class OrgsService {
  private readonly deps: OrgsServiceDeps;
  constructor(deps: OrgsServiceDeps) {
    this.deps = deps;
  }

  async createOrganization(input: { name: string; plan?: PlanName }): Promise<Organization> {
    const now = this.deps.clock.now();
    const org: Organization = {
      id: newId('org', now),
      name: input.name,
      plan: input.plan ?? this.deps.defaultPlan,
      defaultRegion: this.deps.defaultRegion,
      emailAlertsEnabled: true,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.repository.insertOrganization(org);
    return org;
  }

  /**
   * Holds the organization row locked for the rest of `tx` (call it first in the transaction): creates that
   * count against a plan limit then serialise per organization, across processes.
   */
  lockOrganization(tx: Database, organizationId: string): Promise<void> {
    return new OrgsRepository(tx).lockOrganization(organizationId);
  }

  async getOrganization(id: string): Promise<Organization> {
    const org = await this.deps.repository.findOrganization(id);
    if (!org) throw notFound('Organization');
    return org;
  }

  /** The organization read through `db` (a caller's transaction handle: a verb that runs inside a wider change). */
  async getOrganizationIn(db: Database, id: string): Promise<Organization> {
    const org = await new OrgsRepository(db).findOrganization(id);
    if (!org) throw notFound('Organization');
    return org;
  }

  findOrganization(id: string): Promise<Organization | null> {
    return this.deps.repository.findOrganization(id);
  }

  listOrganizations(): Promise<Organization[]> {
    return this.deps.repository.listOrganizations();
  }

  async setPlan(organizationId: string, plan: PlanName, audit?: AuditTrail): Promise<Organization> {
    return this.updateOrganization(organizationId, { plan }, 'organization.set_plan', audit);
  }

  /** Changes the organization's settings (the caller validated them). */
  async updateSettings(
    organizationId: string,
    patch: Partial<Pick<Organization, 'emailAlertsEnabled' | 'defaultRegion'>>,
    audit?: AuditTrail,
  ): Promise<Organization> {
    return this.updateOrganization(organizationId, patch, 'organization.update', audit);
  }

  /** One organization change and its audit entry, in one transaction. */
  private async updateOrganization(
    organizationId: string,
    patch: Partial<Pick<Organization, 'emailAlertsEnabled' | 'defaultRegion' | 'plan'>>,
    action: string,
    audit: AuditTrail | undefined,
  ): Promise<Organization> {
    return this.deps.database.transaction(async (tx) => {
      const repository = new OrgsRepository(tx);
      const before = await repository.findOrganization(organizationId);
      if (!before || !(await repository.updateOrganization(organizationId, patch, this.deps.clock.now())))
        throw notFound('Organization');
      const after = (await repository.findOrganization(organizationId))!;
      await audit?.record(
        tx,
        resourceChange(action, 'organization', { ...before, organizationId }, { ...after, organizationId }),
      );
      return after;
    });
  }

  async setEmailAlertsEnabled(organizationId: string, enabled: boolean): Promise<Organization> {
    const updated = await this.deps.repository.updateOrganization(
      organizationId,
      { emailAlertsEnabled: enabled },
      this.deps.clock.now(),
    );
    if (!updated) throw notFound('Organization');
    return this.getOrganization(organizationId);
  }

  /** Finds the user with this email or creates one. */
  async ensureUser(input: { email: string; name?: string | null }): Promise<User> {
    const email = normalizeEmail(input.email);
    const existing = await this.deps.repository.findUserByEmail(email);
    if (existing) return existing;
    const user: User = {
      id: newId('usr', this.deps.clock.now()),
      email,
      name: input.name ?? null,
      emailVerifiedAt: null,
      createdAt: this.deps.clock.now(),
    };
    await this.deps.repository.insertUser(user);
    return user;
  }

  findUser(id: string): Promise<User | null> {
    return this.deps.repository.findUser(id);
  }

  async addMember(organizationId: string, userId: string, role: Role): Promise<Membership> {
    const membership: Membership = { organizationId, userId, role, createdAt: this.deps.clock.now() };
    await this.deps.repository.insertMembership(membership);
    return membership;
  }

  findMembership(organizationId: string, userId: string): Promise<Membership | null> {
    return this.deps.repository.findMembership(organizationId, userId);
  }

  listMembers(organizationId: string): Promise<Array<{ user: User; role: Role }>> {
    return this.deps.repository.listMembers(organizationId);
  }

  /** A new email verification token for the user (only its hash is stored); valid for `ttlMs`. */
  async createEmailVerification(userId: string, ttlMs = 7 * 24 * 3_600_000): Promise<string> {
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await this.deps.repository.insertEmailVerification({
      token_hash: hashToken(token),
      user_id: userId,
      expires_at: now + ttlMs,
      used_at: null,
      created_at: now,
    });
    return token;
  }

  /** Verifies the email of the token's user; null when the token is unknown, used or expired. */
  async verifyEmail(token: string): Promise<User | null> {
    const userId = await this.deps.repository.useEmailVerification(hashToken(token), this.deps.clock.now());
    if (!userId) return null;
    const user = await this.deps.repository.findUser(userId);
    if (user && user.emailVerifiedAt === null) await this.markEmailVerified(userId);
    return this.deps.repository.findUser(userId);
  }

  markEmailVerified(userId: string): Promise<void> {
    return this.deps.repository.setUserEmailVerified(userId, this.deps.clock.now());
  }

  /**
   * Records an invitation to `organizationId` and returns it with the token of its link. Nothing is read or
   * changed about a user who may already have this address: that happens only when the link is followed.
   * 409 when the address is already a member or already has a pending invitation here.
   */
  async createInvitation(
    input: { organizationId: string; email: string; name: string | null; role: Role; invitedBy: string },
    ttlMs = WEEK_MS,
    audit?: AuditTrail,
  ): Promise<IssuedInvitation> {
    const email = normalizeEmail(input.email);
    const now = this.deps.clock.now();
    const token = randomToken(32);
    const invitation: Invitation = {
      id: newId('inv', now),
      organizationId: input.organizationId,
      email,
      name: input.name,
      role: input.role,
      expiresAt: now + ttlMs,
      invitedBy: input.invitedBy,
      createdAt: now,
    };
    await this.deps.database.transaction(async (tx) => {
      const repository = new OrgsRepository(tx);
      // Serialises invitations of one organization, so two requests for one address give one row and a 409.
      await repository.lockOrganization(input.organizationId);
      if (await repository.isMemberByEmail(input.organizationId, email))
        throw new DomainError('conflict', `${email} is already a member of this organization.`);
      if (await repository.findInvitationByEmail(input.organizationId, email))
        throw new DomainError('conflict', `${email} already has a pending invitation; resend or revoke it.`);
      await repository.insertInvitation(invitation, hashToken(token));
      await audit?.record(tx, resourceChange('invitation.create', 'invitation', null, invitation));
    });
    return { invitation, token };
  }

  listInvitations(organizationId: string): Promise<Invitation[]> {
    return this.deps.repository.listInvitations(organizationId);
  }

  /** A new link for a pending invitation (the previous one stops working), valid for `ttlMs` from now. */
  async renewInvitation(
    organizationId: string,
    id: string,
    ttlMs = WEEK_MS,
    audit?: AuditTrail,
  ): Promise<IssuedInvitation> {
    const token = randomToken(32);
    const invitation = await this.deps.database.transaction(async (tx) => {
      const repository = new OrgsRepository(tx);
      const renewed = await repository.renewInvitation(
        organizationId,
        id,
        hashToken(token),
        this.deps.clock.now() + ttlMs,
      );
      const found = renewed ? await repository.findInvitation(organizationId, id) : null;
      if (found) {
        const change = { organizationId, action: 'invitation.resend', target: { type: 'invitation', id }, changes: {} };
        await audit?.record(tx, change);
      }
      return found;
    });
    if (!invitation) throw notFound('Invitation');
    return { invitation, token };
  }

  async revokeInvitation(organizationId: string, id: string, audit?: AuditTrail): Promise<void> {
    await this.deps.database.transaction(async (tx) => {
      const repository = new OrgsRepository(tx);
      const invitation = await repository.findInvitation(organizationId, id);
      if (!invitation || !(await repository.deleteInvitation(organizationId, id))) throw notFound('Invitation');
      await audit?.record(tx, resourceChange('invitation.revoke', 'invitation', invitation, null));
    });
  }
}
