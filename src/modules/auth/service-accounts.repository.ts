import type { Database } from '../../platform/db/index.ts';
import type { AuthTables, ServiceAccountRow } from './auth.tables.ts';

export class ServiceAccountsRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<AuthTables>();
  }

  async insert(row: ServiceAccountRow): Promise<void> {
    await this.db.insertInto('service_account').values(row).execute();
  }

  async find(organizationId: string, id: string): Promise<ServiceAccountRow | null> {
    const row = await this.db
      .selectFrom('service_account')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ?? null;
  }

  async list(organizationId: string, afterId: string | undefined, limit: number): Promise<ServiceAccountRow[]> {
    let q = this.db
      .selectFrom('service_account')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null);
    if (afterId !== undefined) q = q.where('id', '>', afterId);
    return q
      .orderBy('id')
      .limit(limit + 1)
      .execute();
  }

  async markDeleted(organizationId: string, id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('service_account')
      .set({ deleted_at: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
