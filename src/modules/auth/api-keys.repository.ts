import type { Database } from '../../platform/db/index.ts';
import { OrgAccessColumns } from '../orgs/index.ts';
import type { ApiKeyRow, AuthTables } from './auth.tables.ts';

export interface KeyWithOwner {
  key: ApiKeyRow;
  plan: string;
  /** The owner's role: the user's membership role, or the service account's role; null when the owner is gone. */
  role: string | null;
  /** True when the presented value is the previous one, kept during a rotation grace period. */
  viaPrevious: boolean;
}

export class ApiKeysRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<AuthTables>();
  }

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_key').values(row).execute();
  }

  /**
   * Looks a key up by the hash of its current value, or of its previous value while a rotation's grace lasts. One
   * statement: the organization's plan and the owner's membership role come from the orgs module's columns.
   */
  async findByHash(hash: string): Promise<KeyWithOwner | null> {
    const row = await this.db
      .selectFrom('api_key')
      .leftJoin('service_account', (j) =>
        j
          .onRef('service_account.organization_id', '=', 'api_key.organization_id')
          .onRef('service_account.id', '=', 'api_key.service_account_id')
          .on('service_account.deleted_at', 'is', null),
      )
      .selectAll('api_key')
      .select([
        OrgAccessColumns.plan('api_key.organization_id').as('plan'),
        OrgAccessColumns.memberRole('api_key.organization_id', 'api_key.user_id').as('member_role'),
        'service_account.role as sa_role',
      ])
      .where((eb) => eb.or([eb('api_key.hash', '=', hash), eb('api_key.previous_hash', '=', hash)]))
      .executeTakeFirst();
    // A key of an organization that no longer exists resolves to nothing (as the inner join it replaces did).
    if (!row || row.plan === null) return null;
    const { plan, member_role, sa_role, ...key } = row;
    // A service account's key takes the account's role; a person's key takes the person's current role.
    const role = key.service_account_id !== null ? sa_role : member_role;
    return { key: key as ApiKeyRow, plan, role, viaPrevious: key.hash !== hash };
  }

  async findById(organizationId: string, id: string): Promise<ApiKeyRow | null> {
    const row = await this.db
      .selectFrom('api_key')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** A page of the organization's keys ordered by id (ids are time-sortable). */
  async list(organizationId: string, afterId: string | undefined, limit: number): Promise<ApiKeyRow[]> {
    let q = this.db.selectFrom('api_key').selectAll().where('organization_id', '=', organizationId);
    if (afterId !== undefined) q = q.where('id', '>', afterId);
    return q
      .orderBy('id')
      .limit(limit + 1)
      .execute();
  }

  async revoke(organizationId: string, id: string, at: number): Promise<void> {
    await this.db
      .updateTable('api_key')
      .set({ revoked_at: at, updated_at: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** The scopes and environments of the keys a service account still holds (not revoked). */
  async activeOfServiceAccount(
    organizationId: string,
    serviceAccountId: string,
  ): Promise<Array<Pick<ApiKeyRow, 'id' | 'scopes' | 'environments'>>> {
    return this.db
      .selectFrom('api_key')
      .select(['id', 'scopes', 'environments'])
      .where('organization_id', '=', organizationId)
      .where('service_account_id', '=', serviceAccountId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeForServiceAccount(organizationId: string, serviceAccountId: string, at: number): Promise<number> {
    const result = await this.db
      .updateTable('api_key')
      .set({ revoked_at: at, updated_at: at })
      .where('organization_id', '=', organizationId)
      .where('service_account_id', '=', serviceAccountId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Replaces the value; the old one stays valid until `previousValidUntil` (null: not at all). */
  async rotate(
    organizationId: string,
    id: string,
    change: {
      hash: string;
      prefix: string;
      previousHash: string | null;
      previousValidUntil: number | null;
      at: number;
    },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('api_key')
      .set({
        hash: change.hash,
        prefix: change.prefix,
        previous_hash: change.previousHash,
        previous_valid_until: change.previousValidUntil,
        updated_at: change.at,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Moves last_used_at forward (never back). */
  async touchLastUsed(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('api_key')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }
}
