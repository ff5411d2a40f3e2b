import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { NoticeRow, NoticesTables, NoticeUpdateRow } from './notices.tables.ts';
import type { Notice, NoticeImpact, NoticeKind, NoticeStatus, NoticeUpdate } from './notice.types.ts';

const time = (v: number | null): number | null => (v === null ? null : Number(v));

function toNotice(row: NoticeRow): Notice {
  return {
    id: row.id,
    organizationId: row.organization_id,
    statusPageId: row.status_page_id,
    kind: row.kind as NoticeKind,
    title: row.title,
    impact: row.impact as NoticeImpact,
    status: row.status as NoticeStatus | null,
    affectedMonitorIds: fromJson<string[]>(row.affected_monitor_ids),
    incidentId: row.incident_id,
    published: row.published === 1,
    publishedAt: time(row.published_at),
    resolvedAt: time(row.resolved_at),
    postmortem: row.postmortem,
    postmortemPublishedAt: time(row.postmortem_published_at),
    automatic: row.automatic === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(n: Notice): NoticeRow {
  return {
    id: n.id,
    organization_id: n.organizationId,
    status_page_id: n.statusPageId,
    kind: n.kind,
    title: n.title,
    impact: n.impact,
    status: n.status,
    affected_monitor_ids: toJson(n.affectedMonitorIds),
    incident_id: n.incidentId,
    published: n.published ? 1 : 0,
    published_at: n.publishedAt,
    resolved_at: n.resolvedAt,
    postmortem: n.postmortem,
    postmortem_published_at: n.postmortemPublishedAt,
    automatic: n.automatic ? 1 : 0,
    created_at: n.createdAt,
    updated_at: n.updatedAt,
  };
}

function toUpdate(row: NoticeUpdateRow): NoticeUpdate {
  return {
    id: row.id,
    noticeId: row.notice_id,
    status: row.status as NoticeStatus | null,
    body: row.body,
    createdAt: Number(row.created_at),
  };
}

/** Notices of status pages and their updates. */
export class NoticesRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<NoticesTables>();
    this.dialect = database.dialect;
  }

  async insert(notice: Notice): Promise<void> {
    await this.db.insertInto('status_page_notice').values(toRow(notice)).execute();
  }

  async update(notice: Notice): Promise<void> {
    const { id, organization_id, status_page_id, created_at: _createdAt, ...rest } = toRow(notice);
    await this.db
      .updateTable('status_page_notice')
      .set(rest)
      .where('id', '=', id)
      .where('organization_id', '=', organization_id)
      .where('status_page_id', '=', status_page_id)
      .execute();
  }

  async delete(organizationId: string, statusPageId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('status_page_notice')
      .where('organization_id', '=', organizationId)
      .where('status_page_id', '=', statusPageId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async find(organizationId: string, statusPageId: string, id: string): Promise<Notice | null> {
    const row = await this.db
      .selectFrom('status_page_notice')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status_page_id', '=', statusPageId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toNotice(row) : null;
  }

  /**
   * `find`, holding the row locked until the surrounding transaction ends (PostgreSQL: FOR UPDATE; SQLite: a no-op
   * write takes the database's write lock first), so two changes of one notice apply one after the other.
   */
  async findForUpdate(organizationId: string, statusPageId: string, id: string): Promise<Notice | null> {
    if (this.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('status_page_notice')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('status_page_id', '=', statusPageId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row ? toNotice(row) : null;
    }
    await this.db
      .updateTable('status_page_notice')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', id)
      .execute();
    return this.find(organizationId, statusPageId, id);
  }

  /** Newest first; `before`: the last id of the previous page. */
  async list(
    organizationId: string,
    statusPageId: string,
    before: string | undefined,
    limit: number,
  ): Promise<Notice[]> {
    let q = this.db
      .selectFrom('status_page_notice')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status_page_id', '=', statusPageId);
    if (before) q = q.where('id', '<', before);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return rows.map(toNotice);
  }

  /** Whether the page has a notice of this incident already. */
  async existsForIncident(statusPageId: string, incidentId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('status_page_notice')
      .select('id')
      .where('incident_id', '=', incidentId)
      .where('status_page_id', '=', statusPageId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Published notices of a page still open, or resolved at or after `resolvedSince`; newest first, at most `limit`. */
  async publishedOf(statusPageId: string, resolvedSince: number, limit: number): Promise<Notice[]> {
    const rows = await this.db
      .selectFrom('status_page_notice')
      .selectAll()
      .where('status_page_id', '=', statusPageId)
      .where('published', '=', 1)
      .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', resolvedSince)]))
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toNotice);
  }

  async insertUpdate(update: NoticeUpdate): Promise<void> {
    await this.db
      .insertInto('status_page_notice_update')
      .values({
        id: update.id,
        notice_id: update.noticeId,
        status: update.status,
        body: update.body,
        created_at: update.createdAt,
      })
      .execute();
  }

  /** Each notice's updates, oldest first. */
  async updatesOf(noticeIds: readonly string[]): Promise<Map<string, NoticeUpdate[]>> {
    const out = new Map<string, NoticeUpdate[]>(noticeIds.map((id) => [id, []]));
    if (noticeIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('status_page_notice_update')
      .selectAll()
      .where('notice_id', 'in', [...noticeIds])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) out.get(row.notice_id)?.push(toUpdate(row));
    return out;
  }
}
