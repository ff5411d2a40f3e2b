import { sql, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { CustomReport, CustomReportPeriod, CustomReportWidget, Visibility } from './custom-report.types.ts';
import type { CustomReportRow, ReportsTables } from './reports.tables.ts';

function toReport(r: CustomReportRow): CustomReport {
  return {
    id: r.id,
    organizationId: r.organization_id,
    ownerId: r.owner_id,
    name: r.name,
    period: fromJson<CustomReportPeriod>(r.period),
    timezone: r.timezone,
    widgets: fromJson<CustomReportWidget[]>(r.widgets),
    visibility: r.visibility as Visibility,
    sharedWithUserIds: fromJson<string[]>(r.shared_with_user_ids),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(c: CustomReport): CustomReportRow {
  return {
    id: c.id,
    organization_id: c.organizationId,
    owner_id: c.ownerId,
    name: c.name,
    period: toJson(c.period),
    timezone: c.timezone,
    widgets: toJson(c.widgets),
    visibility: c.visibility,
    shared_with_user_ids: toJson(c.sharedWithUserIds),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

/** Who is looking: a user (owner, member, maybe shared with), or a service account (organization reports only). */
export type Viewer = { userId: string } | { userId: null };

export class CustomReportsRepository {
  private readonly database: Database;
  private readonly db;
  constructor(database: Database) {
    this.database = database;
    this.db = database.tables<ReportsTables>();
  }

  async insert(report: CustomReport): Promise<void> {
    await this.db.insertInto('custom_report').values(toRow(report)).execute();
  }

  /** Writes the record's fields over the stored ones; false when it is gone. */
  async update(report: CustomReport): Promise<boolean> {
    const { id, organization_id, owner_id: _owner, created_at: _createdAt, ...rest } = toRow(report);
    const r = await this.db
      .updateTable('custom_report')
      .set(rest)
      .where('id', '=', id)
      .where('organization_id', '=', organization_id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('custom_report')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async find(organizationId: string, id: string): Promise<CustomReport | null> {
    const row = await this.db
      .selectFrom('custom_report')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toReport(row) : null;
  }

  /**
   * The row again inside an update's transaction, so that a concurrent change is not overwritten unseen:
   * `FOR UPDATE` on PostgreSQL; on SQLite a no-op write takes the write lock before the read.
   */
  async findForUpdate(organizationId: string, id: string): Promise<CustomReport | null> {
    if (this.database.dialect === 'postgres') {
      const row = await this.db
        .selectFrom('custom_report')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      return row ? toReport(row) : null;
    }
    await this.db
      .updateTable('custom_report')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    return this.find(organizationId, id);
  }

  /**
   * The reports a viewer may see, oldest first after the id `after`: for a user the organization's reports, its
   * own and those shared with it; for a service account the organization's reports only. The shared list is JSON
   * text of quoted ids, so a quoted id found in it is an element.
   */
  async listVisible(
    organizationId: string,
    viewer: Viewer,
    after: string | undefined,
    limit: number,
  ): Promise<CustomReport[]> {
    let q = this.db.selectFrom('custom_report').selectAll().where('organization_id', '=', organizationId);
    const userId = viewer.userId;
    if (userId === null) q = q.where('visibility', '=', 'organization');
    else {
      const quoted = JSON.stringify(userId);
      const contains =
        this.database.dialect === 'postgres'
          ? sql<SqlBool>`strpos(shared_with_user_ids, ${quoted}) > 0`
          : sql<SqlBool>`instr(shared_with_user_ids, ${quoted}) > 0`;
      q = q.where((eb) =>
        eb.or([
          eb('visibility', '=', 'organization'),
          eb('owner_id', '=', userId),
          eb.and([eb('visibility', '=', 'shared'), contains]),
        ]),
      );
    }
    if (after) q = q.where('id', '>', after);
    return (await q.orderBy('id').limit(limit).execute()).map(toReport);
  }
}
