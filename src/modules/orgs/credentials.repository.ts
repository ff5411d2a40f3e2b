import { sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import type { OrgsTables } from './orgs.tables.ts';
import type { Role } from './orgs.types.ts';

/** Passwords, password reset tokens and the first-run guard (rows of the orgs module's tables). */
export class CredentialsRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<OrgsTables>();
    this.dialect = database.dialect;
  }

  async anyOrganization(): Promise<boolean> {
    const row = await this.db.selectFrom('organization').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Serialises first-run set-ups until the surrounding transaction ends, so two at once give one organization
   * (PostgreSQL: a table lock that lets reads through; SQLite: a write that takes the database's write lock).
   */
  async lockForSetup(): Promise<void> {
    if (this.dialect === 'postgres') {
      await sql`lock table organization in share row exclusive mode`.execute(this.db);
    } else {
      await this.db
        .updateTable('organization')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', '')
        .execute();
    }
  }

  /** The user with this (normalised) address and their password hash, or null. */
  async findCredentials(email: string): Promise<{ userId: string; passwordHash: string | null } | null> {
    const row = await this.db
      .selectFrom('app_user')
      .select(['id', 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
    return row ? { userId: row.id, passwordHash: row.password_hash ?? null } : null;
  }

  async passwordHashOf(userId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('app_user')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.password_hash ?? null;
  }

  async setPasswordHash(userId: string, hash: string): Promise<void> {
    await this.db.updateTable('app_user').set({ password_hash: hash }).where('id', '=', userId).execute();
  }

  /** The user's memberships, oldest first. */
  async membershipsOf(userId: string): Promise<Array<{ organizationId: string; role: Role }>> {
    const rows = await this.db
      .selectFrom('membership')
      .select(['organization_id', 'role'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('organization_id')
      .execute();
    return rows.map((r) => ({ organizationId: r.organization_id, role: r.role as Role }));
  }

  async insertPasswordReset(row: {
    tokenHash: string;
    userId: string;
    expiresAt: number;
    createdAt: number;
  }): Promise<void> {
    await this.db
      .insertInto('password_reset')
      .values({
        token_hash: row.tokenHash,
        user_id: row.userId,
        expires_at: row.expiresAt,
        used_at: null,
        created_at: row.createdAt,
      })
      .execute();
  }

  /** Marks an unused, unexpired reset token used and returns its user id; null when there is no such token. */
  async usePasswordReset(tokenHash: string, now: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('password_reset')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    const result = await this.db
      .updateTable('password_reset')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? row.user_id : null;
  }

  /** Every other unused link of the user stops working (a new password was set). */
  async usePasswordResetsOf(userId: string, now: number): Promise<void> {
    await this.db
      .updateTable('password_reset')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  async findInvitationByTokenHash(tokenHash: string, now: number) {
    return this.db
      .selectFrom('invitation')
      .innerJoin('organization', 'organization.id', 'invitation.organization_id')
      .select([
        'invitation.id',
        'invitation.organization_id',
        'invitation.email',
        'invitation.name',
        'invitation.role',
        'invitation.expires_at',
        'organization.name as organization_name',
      ])
      .where('invitation.token_hash', '=', tokenHash)
      .where('invitation.expires_at', '>', now)
      .executeTakeFirst();
  }

  async countOwners(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('membership')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async setRole(organizationId: string, userId: string, role: Role): Promise<boolean> {
    const result = await this.db
      .updateTable('membership')
      .set({ role })
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
