import { sql } from 'kysely';
import type { Database, PrecompiledQueries } from '../../platform/db/index.ts';
import { fromJson, param, toJson } from '../../platform/db/index.ts';
import type { ConfigDocumentKind, ConfigItem } from '../config-format/index.ts';
import type { ConfigDocumentsTables } from './config-documents.tables.ts';

export interface ManagedItem {
  kind: ConfigDocumentKind;
  key: string;
  itemId: string;
  applied: ConfigItem;
  appliedAt: number;
}

/** Up to this many ids, `keysOf`'s statement is compiled once per count (a list page has at most 200). */
const PRECOMPILED_IDS = 200;

export class ConfigItemsRepository {
  private readonly db;
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
    this.db = database.tables<ConfigDocumentsTables>();
  }

  /**
   * Serialises applies of one organization: the second waits for the first to commit and then plans against what it
   * made. SQLite has one writer already; PostgreSQL takes a transaction-scoped advisory lock.
   */
  async lockOrganization(organizationId: string): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtextextended(${`tocsin:config:${organizationId}`}, 7406))`.execute(
      this.db,
    );
  }

  async list(organizationId: string): Promise<ManagedItem[]> {
    const rows = await this.db
      .selectFrom('config_item')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('kind')
      .orderBy('key')
      .execute();
    return rows.map((r) => ({
      kind: r.kind as ConfigDocumentKind,
      key: r.key,
      itemId: r.item_id,
      applied: fromJson<ConfigItem>(r.applied),
      appliedAt: Number(r.applied_at),
    }));
  }

  async findByItem(
    organizationId: string,
    itemId: string,
    queries: PrecompiledQueries,
  ): Promise<{ kind: string; key: string } | null> {
    // Every PATCH and DELETE of a record asks this: built and compiled once in `queries`.
    const [row] = await queries.run<{ kind: string; key: string }>(
      this.database.tables<unknown>(),
      `configItems.findByItem:${this.database.dialect}`,
      () =>
        this.db
          .selectFrom('config_item')
          .select(['kind', 'key'])
          .where('organization_id', '=', param('organizationId'))
          .where('item_id', '=', param('itemId')),
      { organizationId, itemId },
    );
    return row ?? null;
  }

  /**
   * Of these records, the managed ones with their keys. Every answer of a record route asks this (a read, a page of a
   * list): up to PRECOMPILED_IDS ids the statement is built and compiled once per count in `queries`.
   */
  async keysOf(
    organizationId: string,
    itemIds: readonly string[],
    queries: PrecompiledQueries,
  ): Promise<Map<string, string>> {
    if (itemIds.length === 0) return new Map();
    const ids = [...new Set(itemIds)];
    const rows =
      ids.length > PRECOMPILED_IDS
        ? await this.db
            .selectFrom('config_item')
            .select(['item_id', 'key'])
            .where('organization_id', '=', organizationId)
            .where('item_id', 'in', ids)
            .execute()
        : await queries.run<{ item_id: string; key: string }>(
            this.database.tables<unknown>(),
            `configItems.keysOf:${this.database.dialect}:${ids.length}`,
            () =>
              this.db
                .selectFrom('config_item')
                .select(['item_id', 'key'])
                .where('organization_id', '=', param('organizationId'))
                .where(
                  'item_id',
                  'in',
                  ids.map((_, i) => param(`id${i}`)),
                ),
            { organizationId, ...Object.fromEntries(ids.map((id, i) => [`id${i}`, id])) },
          );
    return new Map(rows.map((r) => [r.item_id, r.key]));
  }

  async save(organizationId: string, item: ManagedItem): Promise<void> {
    await this.db
      .insertInto('config_item')
      .values({
        organization_id: organizationId,
        kind: item.kind,
        key: item.key,
        item_id: item.itemId,
        applied: toJson(item.applied),
        applied_at: item.appliedAt,
      })
      .onConflict((oc) =>
        oc.columns(['organization_id', 'kind', 'key']).doUpdateSet({
          item_id: item.itemId,
          applied: toJson(item.applied),
          applied_at: item.appliedAt,
        }),
      )
      .execute();
  }

  async remove(organizationId: string, kind: ConfigDocumentKind, key: string): Promise<void> {
    await this.db
      .deleteFrom('config_item')
      .where('organization_id', '=', organizationId)
      .where('kind', '=', kind)
      .where('key', '=', key)
      .execute();
  }

  /** A record deleted by other means (its organization's cleanup) stops being managed. */
  async removeItem(organizationId: string, itemId: string): Promise<void> {
    await this.db
      .deleteFrom('config_item')
      .where('organization_id', '=', organizationId)
      .where('item_id', '=', itemId)
      .execute();
  }
}
