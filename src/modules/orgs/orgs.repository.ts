import type { PlanName } from '../../config/index.ts';
import type { Database } from '../../platform/db/index.ts';
import type { EmailVerificationRow, InvitationRow, OrganizationRow, OrgsTables, UserRow } from './orgs.tables.ts';
import type { Invitation, Membership, Organization, Role, User } from './orgs.types.ts';

function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanName,
    defaultRegion: row.default_region,
    emailAlertsEnabled: row.email_alerts_enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailVerifiedAt: row.email_verified_at,
    createdAt: row.created_at,
  };
}

function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    organizationId: row.organization_id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    expiresAt: row.expires_at,
    invitedBy: row.invited_by,
    createdAt: row.created_at,
  };
}

export class OrgsRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<OrgsTables>();
    this.dialect = database.dialect;
  }

  async insertOrganization(org: Organization): Promise<void> {
    await this.db
      .insertInto('organization')
      .values({
        id: org.id,
        name: org.name,
        plan: org.plan,
        default_region: org.defaultRegion,
        email_alerts_enabled: org.emailAlertsEnabled ? 1 : 0,
        created_at: org.createdAt,
        updated_at: org.updatedAt,
      })
      .execute();
  }

  /**
   * Locks the organization row until the surrounding transaction ends, so that count-then-insert of a plan
   * limit cannot interleave with another transaction's (PostgreSQL: FOR UPDATE; SQLite: a no-op write takes
   * the database's write lock at once, as BEGIN IMMEDIATE would, instead of upgrading after the count).
   */
  async lockOrganization(id: string): Promise<void> {
    if (this.dialect === 'postgres') {
      await this.db.selectFrom('organization').select('id').where('id', '=', id).forUpdate().execute();
    } else {
      await this.db
        .updateTable('organization')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', id)
        .execute();
    }
  }

  async findOrganization(id: string): Promise<Organization | null> {
    const row = await this.db.selectFrom('organization').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toOrganization(row) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    const rows = await this.db.selectFrom('organization').selectAll().orderBy('id').execute();
    return rows.map(toOrganization);
  }

  async updateOrganization(
    id: string,
    patch: Partial<Pick<Organization, 'plan' | 'name' | 'emailAlertsEnabled' | 'defaultRegion'>>,
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('organization')
      .set({
        ...(patch.plan !== undefined && { plan: patch.plan }),
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.defaultRegion !== undefined && { default_region: patch.defaultRegion }),
        ...(patch.emailAlertsEnabled !== undefined && { email_alerts_enabled: patch.emailAlertsEnabled ? 1 : 0 }),
        updated_at: now,
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertUser(user: User): Promise<void> {
    await this.db
      .insertInto('app_user')
      .values({
        id: user.id,
        email: user.email,
        name: user.name,
        email_verified_at: user.emailVerifiedAt,
        created_at: user.createdAt,
      })
      .execute();
  }

  async findUser(id: string): Promise<User | null> {
    const row = await this.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findUserByEmail(email: string): Promise<User | null> {
    const row = await this.db.selectFrom('app_user').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async setUserEmailVerified(id: string, at: number): Promise<void> {
    await this.db.updateTable('app_user').set({ email_verified_at: at }).where('id', '=', id).execute();
  }

  async insertEmailVerification(row: EmailVerificationRow): Promise<void> {
    await this.db.insertInto('email_verification').values(row).execute();
  }

  /** Marks an unused, unexpired token used and returns its user id; null when there is no such token. */
  async useEmailVerification(tokenHash: string, now: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('email_verification')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    const r = await this.db
      .updateTable('email_verification')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? row.user_id : null;
  }

  async insertMembership(m: Membership): Promise<void> {
    await this.db
      .insertInto('membership')
      .values({ organization_id: m.organizationId, user_id: m.userId, role: m.role, created_at: m.createdAt })
      .execute();
  }

  async findMembership(organizationId: string, userId: string): Promise<Membership | null> {
    const row = await this.db
      .selectFrom('membership')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row
      ? { organizationId: row.organization_id, userId: row.user_id, role: row.role as Role, createdAt: row.created_at }
      : null;
  }

  /** Members with their user records, oldest membership first. */
  async listMembers(organizationId: string): Promise<Array<{ user: User; role: Role }>> {
    const rows = await this.db
      .selectFrom('membership')
      .innerJoin('app_user', 'app_user.id', 'membership.user_id')
      .select([
        'app_user.id',
        'app_user.email',
        'app_user.name',
        'app_user.email_verified_at',
        'app_user.created_at',
        'membership.role',
      ])
      .where('membership.organization_id', '=', organizationId)
      .orderBy('membership.created_at')
      .execute();
    return rows.map((r) => ({ user: toUser(r), role: r.role as Role }));
  }

  /** Creates the user unless one has this email already (another transaction may create it at the same time). */
  async insertUserIfAbsent(user: User): Promise<void> {
    await this.db
      .insertInto('app_user')
      .values({
        id: user.id,
        email: user.email,
        name: user.name,
        email_verified_at: user.emailVerifiedAt,
        created_at: user.createdAt,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  }

  /** Sets the verification time of a user not verified yet; an earlier verification keeps its time. */
  async setUserEmailVerifiedIfNot(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('app_user')
      .set({ email_verified_at: at })
      .where('id', '=', id)
      .where('email_verified_at', 'is', null)
      .execute();
  }

  async insertMembershipIfAbsent(m: Membership): Promise<void> {
    await this.db
      .insertInto('membership')
      .values({ organization_id: m.organizationId, user_id: m.userId, role: m.role, created_at: m.createdAt })
      .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
      .execute();
  }

  async isMemberByEmail(organizationId: string, email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('membership')
      .innerJoin('app_user', 'app_user.id', 'membership.user_id')
      .select('membership.user_id')
      .where('membership.organization_id', '=', organizationId)
      .where('app_user.email', '=', email)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertInvitation(invitation: Invitation, tokenHash: string): Promise<void> {
    await this.db
      .insertInto('invitation')
      .values({
        id: invitation.id,
        organization_id: invitation.organizationId,
        email: invitation.email,
        name: invitation.name,
        role: invitation.role,
        token_hash: tokenHash,
        expires_at: invitation.expiresAt,
        invited_by: invitation.invitedBy,
        created_at: invitation.createdAt,
      })
      .execute();
  }

  async findInvitationByEmail(organizationId: string, email: string): Promise<Invitation | null> {
    const row = await this.db
      .selectFrom('invitation')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('email', '=', email)
      .executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  async findInvitation(organizationId: string, id: string): Promise<Invitation | null> {
    const row = await this.db
      .selectFrom('invitation')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  /** Pending invitations, oldest first. */
  async listInvitations(organizationId: string): Promise<Invitation[]> {
    const rows = await this.db
      .selectFrom('invitation')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toInvitation);
  }

  /** Gives the invitation a new token and expiry (the previous link stops working); false when there is none. */
  async renewInvitation(organizationId: string, id: string, tokenHash: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('invitation')
      .set({ token_hash: tokenHash, expires_at: expiresAt })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteInvitation(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('invitation')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Removes the invitation whose token this is, if it has not expired, and returns it: the link works once.
   * Null when the token is unknown (never issued, replaced by a resend, used, revoked) or expired.
   */
  async takeInvitation(tokenHash: string, now: number): Promise<Invitation | null> {
    const row = await this.db
      .selectFrom('invitation')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    const result = await this.db
      .deleteFrom('invitation')
      .where('id', '=', row.id)
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0 ? toInvitation(row) : null;
  }
}
