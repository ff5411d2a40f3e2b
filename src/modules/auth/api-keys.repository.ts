import type { Database } from '../../platform/db/index.ts';
import type { ApiKeyRow, AuthTables } from './auth.tables.ts';

export interface KeyWithOwner {
  key: ApiKeyRow;
  plan: string;
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

  /** Looks a key up by the hash of its current value, or of its previous value while a rotation's grace lasts. */
  async findByHash(hash: string): Promise<KeyWithOwner | null> {
    const row = await this.db
      .selectFrom('api_key')
      .innerJoin('organization', 'organization.id', 'api_key.organization_id')
      .leftJoin('membership', (j) =>
        j.onRef('membership.organization_id', '=', 'api_key.organization_id').onRef('membership.user_id', '=', 'api_key.user_id'),
      )
      .selectAll('api_key')
      .select(['organization.plan as plan', 'membership.role as role'])
      .where((eb) => eb.or([eb('api_key.hash', '=', hash), eb('api_key.previous_hash', '=', hash)]))
      .executeTakeFirst();
    if (!row) return null;
    const { plan, role, ...key } = row;
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
}
