import type { Database } from '../../platform/db/index.ts';
import type { ApiKeyUsageRow, AuthTables } from './auth.tables.ts';

export class UsageRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  /** Adds the buckets' counts to the stored ones and moves each key's last_used_at forward, in one transaction. */
  async addBuckets(rows: readonly ApiKeyUsageRow[], lastUsed: ReadonlyMap<string, number>): Promise<void> {
    await this.database.transaction(async (tx) => {
      const db = tx.tables<AuthTables>();
      for (let i = 0; i < rows.length; i += 200) {
        await db
          .insertInto('api_key_usage')
          .values(rows.slice(i, i + 200))
          .onConflict((oc) =>
            oc.columns(['key_id', 'minute']).doUpdateSet((eb) => ({
              read_count: eb('api_key_usage.read_count', '+', eb.ref('excluded.read_count')),
              write_count: eb('api_key_usage.write_count', '+', eb.ref('excluded.write_count')),
              delete_count: eb('api_key_usage.delete_count', '+', eb.ref('excluded.delete_count')),
              status_2xx: eb('api_key_usage.status_2xx', '+', eb.ref('excluded.status_2xx')),
              status_3xx: eb('api_key_usage.status_3xx', '+', eb.ref('excluded.status_3xx')),
              status_4xx: eb('api_key_usage.status_4xx', '+', eb.ref('excluded.status_4xx')),
              status_5xx: eb('api_key_usage.status_5xx', '+', eb.ref('excluded.status_5xx')),
            })),
          )
          .execute();
      }
      for (const [keyId, at] of lastUsed) {
        await db
          .updateTable('api_key')
          .set({ last_used_at: at })
          .where('id', '=', keyId)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
          .execute();
      }
    });
  }

  async buckets(organizationId: string, keyId: string, from: number, to: number): Promise<ApiKeyUsageRow[]> {
    return this.database
      .tables<AuthTables>()
      .selectFrom('api_key_usage')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('key_id', '=', keyId)
      .where('minute', '>=', from)
      .where('minute', '<', to)
      .orderBy('minute')
      .execute();
  }
}
