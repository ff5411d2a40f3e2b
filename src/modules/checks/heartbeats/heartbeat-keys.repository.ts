import type { Database } from '../../../platform/db/index.ts';
import type { HeartbeatTables } from './heartbeats.tables.ts';

/** `heartbeat_org_setting` (ping key, auto-create) and `heartbeat_slug` (slug → monitor per organization). */
export class HeartbeatKeysRepository {
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
  }

  private get db() {
    return this.database.tables<HeartbeatTables>();
  }

  async settings(organizationId: string): Promise<{ pingKey: string | null; autoCreate: boolean }> {
    const row = await this.db
      .selectFrom('heartbeat_org_setting')
      .select(['ping_key', 'auto_create'])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return { pingKey: row?.ping_key ?? null, autoCreate: Number(row?.auto_create ?? 0) === 1 };
  }

  async saveSettings(organizationId: string, pingKey: string | null, autoCreate: boolean, at: number): Promise<void> {
    const values = { ping_key: pingKey, auto_create: autoCreate ? 1 : 0, updated_at: at };
    await this.db
      .insertInto('heartbeat_org_setting')
      .values({ organization_id: organizationId, ...values })
      .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
      .execute();
  }

  async organizationOfKey(pingKey: string): Promise<{ organizationId: string; autoCreate: boolean } | null> {
    const row = await this.db
      .selectFrom('heartbeat_org_setting')
      .select(['organization_id', 'auto_create'])
      .where('ping_key', '=', pingKey)
      .executeTakeFirst();
    return row ? { organizationId: row.organization_id, autoCreate: Number(row.auto_create) === 1 } : null;
  }

  async monitorOfSlug(organizationId: string, slug: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('heartbeat_slug')
      .select('monitor_id')
      .where('organization_id', '=', organizationId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    return row?.monitor_id ?? null;
  }

  /** Points `slug` at the monitor (null: the monitor has none). False when another monitor holds the slug. */
  async setSlug(organizationId: string, monitorId: string, slug: string | null): Promise<boolean> {
    if (slug !== null) {
      const holder = await this.monitorOfSlug(organizationId, slug);
      if (holder !== null && holder !== monitorId) return false;
      if (holder === monitorId) return true;
    }
    await this.db.deleteFrom('heartbeat_slug').where('monitor_id', '=', monitorId).execute();
    if (slug !== null) {
      await this.db
        .insertInto('heartbeat_slug')
        .values({ organization_id: organizationId, slug, monitor_id: monitorId })
        .execute();
    }
    return true;
  }
}
