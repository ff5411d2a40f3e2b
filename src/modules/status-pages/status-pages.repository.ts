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
    autoNotices: row.auto_notices === 1,
    groups: fromJson<Array<{ name: string; monitor_ids: string[]; collapsed: boolean }>>(row.groups).map((g) => ({
      name: g.name,
      monitorIds: g.monitor_ids,
      collapsed: g.collapsed,
    })),
    customDomain: row.custom_domain,
    access: row.access === 'password' ? 'password' : 'public',
    passwordHash: row.password_hash,
    timezone: row.timezone,
    subscriptionsEnabled: row.subscriptions_enabled === 1,
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
    auto_notices: p.autoNotices ? 1 : 0,
    groups: toJson(p.groups.map((g) => ({ name: g.name, monitor_ids: g.monitorIds, collapsed: g.collapsed }))),
    custom_domain: p.customDomain,
    access: p.access,
    password_hash: p.passwordHash,
    timezone: p.timezone,
    subscriptions_enabled: p.subscriptionsEnabled ? 1 : 0,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export type UniqueField = 'slug' | 'custom_domain';

/** Which unique index refused a write: PostgreSQL names the constraint, SQLite the column in its message. */
function uniqueFieldOf(err: unknown): UniqueField {
  const e = err as { constraint?: unknown; message?: unknown } | null;
  const text = [e?.constraint, e?.message].filter((v): v is string => typeof v === 'string').join(' ');
  return text.includes('custom_domain') ? 'custom_domain' : 'slug';
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

  /** The unique field another page holds (slug or custom domain), or null when inserted. */
  async insert(page: StatusPage): Promise<UniqueField | null> {
    // Without a conflict target: any unique index (slug, custom domain) makes it a no-op, not an error.
    const rows = await this.db
      .insertInto('status_page')
      .values(toRow(page))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    return rows.length > 0 ? null : this.takenField(page);
  }

  /** The unique field another page holds (slug or custom domain), or null when updated. */
  async update(page: StatusPage): Promise<UniqueField | null> {
    const { id, organization_id, created_at: _createdAt, ...rest } = toRow(page);
    try {
      await this.db
        .updateTable('status_page')
        .set(rest)
        .where('id', '=', id)
        .where('organization_id', '=', organization_id)
        .execute();
      return null;
    } catch (err) {
      if (isUniqueViolation(err)) return uniqueFieldOf(err);
      throw err;
    }
  }

  private async takenField(page: StatusPage): Promise<UniqueField> {
    if (page.customDomain !== null && (await this.domainTaken(page.customDomain, page.id))) return 'custom_domain';
    return 'slug';
  }

  async domainTaken(domain: string, exceptId: string | null): Promise<boolean> {
    let q = this.db.selectFrom('status_page').select('id').where('custom_domain', '=', domain);
    if (exceptId) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async findByDomain(domain: string): Promise<StatusPage | null> {
    const row = await this.db
      .selectFrom('status_page')
      .selectAll()
      .where('custom_domain', '=', domain)
      .executeTakeFirst();
    return row ? toPage(row) : null;
  }

  /** Every custom domain with its page's slug (served by Host). */
  async customDomains(): Promise<Array<{ domain: string; slug: string }>> {
    const rows = await this.db
      .selectFrom('status_page')
      .select(['custom_domain', 'slug'])
      .where('custom_domain', 'is not', null)
      .execute();
    return rows.map((r) => ({ domain: r.custom_domain!, slug: r.slug }));
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

  /**
   * Pages of an organization that list this monitor, ungrouped or in a group (monitor ids are JSON strings without
   * quotes inside, so the quoted id matches only itself).
   */
  async listShowingMonitor(organizationId: string, monitorId: string): Promise<StatusPage[]> {
    const quoted = `%${JSON.stringify(monitorId)}%`;
    const rows = await this.db
      .selectFrom('status_page')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where((eb) => eb.or([eb('monitor_ids', 'like', quoted), eb('groups', 'like', quoted)]))
      .execute();
    return rows.map(toPage);
  }
}
