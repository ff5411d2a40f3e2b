import type { Database } from '../../platform/db/index.ts';
import type { SessionsTables, UserSessionRow } from './sessions.tables.ts';

/** A live session with what a request needs to act: the user's current role and the organization's plan. */
export interface ResolvedSessionRow extends UserSessionRow {
  role: string;
  plan: string;
  email: string;
  user_name: string | null;
}

interface JoinedTables extends SessionsTables {
  membership: { organization_id: string; user_id: string; role: string };
  organization: { id: string; plan: string };
  app_user: { id: string; email: string; name: string | null };
}

export class SessionsRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<JoinedTables>();
  }

  async insert(row: UserSessionRow): Promise<void> {
    await this.db.insertInto('user_session').values(row).execute();
  }

  /**
   * The session with this token hash if it has not ended and its membership still exists (a member removed
   * from the organization loses their sessions with it), with the current role and plan.
   */
  async findLive(tokenHash: string): Promise<ResolvedSessionRow | null> {
    const row = await this.db
      .selectFrom('user_session')
      .innerJoin('membership', (j) =>
        j
          .onRef('membership.organization_id', '=', 'user_session.organization_id')
          .onRef('membership.user_id', '=', 'user_session.user_id'),
      )
      .innerJoin('organization', 'organization.id', 'user_session.organization_id')
      .innerJoin('app_user', 'app_user.id', 'user_session.user_id')
      .selectAll('user_session')
      .select(['membership.role', 'organization.plan', 'app_user.email', 'app_user.name as user_name'])
      .where('user_session.token_hash', '=', tokenHash)
      .where('user_session.ended_at', 'is', null)
      .executeTakeFirst();
    return row ?? null;
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
