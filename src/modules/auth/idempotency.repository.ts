import type { Database } from '../../platform/db/index.ts';
import type { AuthTables, IdempotencyKeyRow } from './auth.tables.ts';

export class IdempotencyRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<AuthTables>();
  }

  /**
   * Inserts the in-progress row unless (api_key_id, key) exists. The unique index decides between
   * concurrent requests in every process, on PostgreSQL and SQLite alike. True when this call inserted it.
   */
  async tryInsert(row: IdempotencyKeyRow): Promise<boolean> {
    const result = await this.db
      .insertInto('idempotency_key')
      .values(row)
      .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async find(apiKeyId: string, key: string): Promise<IdempotencyKeyRow | null> {
    const row = await this.db
      .selectFrom('idempotency_key')
      .selectAll()
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row ?? null;
  }

  async complete(id: string, status: number, body: string, headers: string): Promise<void> {
    await this.db
      .updateTable('idempotency_key')
      .set({ state: 'completed', status, response_body: body, response_headers: headers })
      .where('id', '=', id)
      .execute();
  }

  async deleteById(id: string): Promise<void> {
    await this.db.deleteFrom('idempotency_key').where('id', '=', id).execute();
  }

  /** Deletes an expired row so its key can be used again. */
  async deleteExpired(apiKeyId: string, key: string, now: number): Promise<void> {
    await this.db
      .deleteFrom('idempotency_key')
      .where('api_key_id', '=', apiKeyId)
      .where('key', '=', key)
      .where('expires_at', '<=', now)
      .execute();
  }

  /** Deletes up to `limit` expired rows; returns how many went. */
  async purgeChunk(now: number, limit: number): Promise<number> {
    const ids = await this.db
      .selectFrom('idempotency_key')
      .select('id')
      .where('expires_at', '<=', now)
      .limit(limit)
      .execute();
    if (ids.length === 0) return 0;
    const result = await this.db
      .deleteFrom('idempotency_key')
      .where(
        'id',
        'in',
        ids.map((r) => r.id),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
