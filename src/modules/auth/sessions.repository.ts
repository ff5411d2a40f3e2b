import type { Database } from '../../platform/db/index.ts';
import { OrgAccessColumns } from '../orgs/index.ts';
import type { SessionsTables, UserSessionRow } from './sessions.tables.ts';

/** A live session with what a request needs to act: the user's current role and the organization's plan. */
export interface ResolvedSessionRow extends UserSessionRow {
  role: string;
  plan: string;
  email: string;
  user_name: string | null;
}

export class SessionsRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<SessionsTables>();
  }

  async insert(row: UserSessionRow): Promise<void> {
    await this.db.insertInto('user_session').values(row).execute();
  }

  /**
   * The session with this token hash if it has not ended and its membership still exists (a member removed
   * from the organization loses their sessions with it), with the current role and plan. One statement: the role,
   * plan and the user's address and name come from the orgs module's columns.
   */
  async findLive(tokenHash: string): Promise<ResolvedSessionRow | null> {
    const row = await this.db
      .selectFrom('user_session')
      .selectAll('user_session')
      .select([
        OrgAccessColumns.memberRole('user_session.organization_id', 'user_session.user_id').as('role'),
        OrgAccessColumns.plan('user_session.organization_id').as('plan'),
        OrgAccessColumns.userEmail('user_session.user_id').as('email'),
        OrgAccessColumns.userName('user_session.user_id').as('user_name'),
      ])
      .where('user_session.token_hash', '=', tokenHash)
      .where('user_session.ended_at', 'is', null)
      .executeTakeFirst();
    // No membership (the member was removed), organization or user: no live session, as the inner joins had it.
    if (!row || row.role === null || row.plan === null || row.email === null) return null;
    return { ...row, role: row.role, plan: row.plan, email: row.email };
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('user_session')
      .set({ last_seen_at: at })
      .where('id', '=', id)
      .where('last_seen_at', '<', at)
      .execute();
  }

  /** The user's sessions that have not ended and are not past `aliveSince` (idle) or `now` (absolute). */
  listLive(userId: string, now: number, idleSince: number): Promise<UserSessionRow[]> {
    return this.db
      .selectFrom('user_session')
      .selectAll()
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>', idleSince)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Ends one of the user's sessions; false when the user has no such live session. */
  async end(userId: string, id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('user_session')
      .set({ ended_at: at })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Ends every live session of the user but `exceptId` (null: all of them). */
  async endAllOf(userId: string, at: number, exceptId: string | null): Promise<void> {
    let q = this.db
      .updateTable('user_session')
      .set({ ended_at: at })
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    await q.execute();
  }
}
