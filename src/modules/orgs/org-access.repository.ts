import { sql, type RawBuilder } from 'kysely';

/**
 * What another module's hot read selects of an organization beside its own row, in the same statement: correlated
 * subqueries over the orgs module's tables (`organization`, `membership`, `app_user`) that the caller puts in its
 * select list, so its read stays one query without naming these tables (auth resolves each request's key or session
 * this way). Each argument is the caller's column reference, e.g. `'api_key.organization_id'`; each subquery reads
 * one row by primary key, and is null when there is none.
 */
export class OrgAccessColumns {
  /** The organization's plan. */
  static plan(organizationId: string): RawBuilder<string | null> {
    return sql<string | null>`(select o.plan from organization o where o.id = ${sql.ref(organizationId)})`;
  }

  /** The user's role in the organization; null when they are not (or no longer) a member. */
  static memberRole(organizationId: string, userId: string): RawBuilder<string | null> {
    return sql<
      string | null
    >`(select m.role from membership m where m.organization_id = ${sql.ref(organizationId)} and m.user_id = ${sql.ref(userId)})`;
  }

  static userEmail(userId: string): RawBuilder<string | null> {
    return sql<string | null>`(select u.email from app_user u where u.id = ${sql.ref(userId)})`;
  }

  static userName(userId: string): RawBuilder<string | null> {
    return sql<string | null>`(select u.name from app_user u where u.id = ${sql.ref(userId)})`;
  }
}
