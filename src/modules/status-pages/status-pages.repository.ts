import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { StatusPageRow, StatusPagesTables } from './status-pages.tables.ts';
import type { StatusPage } from './status-page.types.ts';

function toPage(row: StatusPageRow): StatusPage {
  return {
    id: row.id,
    organizationId: row.organization_id,
    slug: row.slug,
    title: row.title,
    monitorIds: fromJson<string[]>(row.monitor_ids),
    public: row.public === 1,
    showSlaTargets: row.show_sla_targets === 1,
    allowEmbedding: row.allow_embedding === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(p: StatusPage): StatusPageRow {
  return {
    id: p.id,
    organization_id: p.organizationId,
    slug: p.slug,
    title: p.title,
    monitor_ids: toJson(p.monitorIds),
    public: p.public ? 1 : 0,
    show_sla_targets: p.showSlaTargets ? 1 : 0,
    allow_embedding: p.allowEmbedding ? 1 : 0,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

export class StatusPagesRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<StatusPagesTables>();
    this.dialect = database.dialect;
  }

  /** False when the slug is taken (unique index). */
  async insert(page: StatusPage): Promise<boolean> {
    const rows = await this.db
      .insertInto('status_page')
      .values(toRow(page))
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  /** False when the new slug is taken. */
  async update(page: StatusPage): Promise<boolean> {
    const { id, organization_id, created_at: _createdAt, ...rest } = toRow(page);
    try {
      await this.db
        .updateTable('status_page')
        .set(rest)
        .where('id', '=', id)
        .where('organization_id', '=', organization_id)
        .execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('status_page')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async find(organizationId: string, id: string): Promise<StatusPage | null> {
    const row = await this.db
      .selectFrom('status_page')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toPage(row) : null;
  }

  /**
   * `find`, holding the row locked until the surrounding transaction ends (PostgreSQL: FOR UPDATE, which reads the
   * latest committed row; SQLite: a no-op write takes the database's write lock first, as BEGIN IMMEDIATE would).
   */
  async findForUpdate(organizationId: string, id: string): Promise<StatusPage | null> {
    if (this.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('status_page')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row ? toPage(row) : null;
    }
    await this.db
      .updateTable('status_page')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    return this.find(organizationId, id);
  }

  async findBySlug(slug: string): Promise<StatusPage | null> {
    const row = await this.db.selectFrom('status_page').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row ? toPage(row) : null;
  }

  async slugTaken(slug: string, exceptId: string | null): Promise<boolean> {
    let q = this.db.selectFrom('status_page').select('id').where('slug', '=', slug);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('status_page')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async list(organizationId: string, after: string | undefined, limit: number): Promise<StatusPage[]> {
    let q = this.db.selectFrom('status_page').selectAll().where('organization_id', '=', organizationId);
    if (after) q = q.where('id', '>', after);
    const rows = await q
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    return rows.map(toPage);
  }

  /** Pages of an organization that list this monitor (monitor ids are JSON strings without quotes inside). */
  async listShowingMonitor(organizationId: string, monitorId: string): Promise<StatusPage[]> {
    const rows = await this.db
      .selectFrom('status_page')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('monitor_ids', 'like', `%${JSON.stringify(monitorId)}%`)
      .execute();
    return rows.map(toPage);
  }
}
