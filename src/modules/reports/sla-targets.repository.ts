import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import type { SlaPeriod } from './report.period.ts';
import type { ReportsTables, SlaTargetRow } from './reports.tables.ts';

export interface SlaTarget {
  id: string;
  organizationId: string;
  name: string;
  monitorIds: string[];
  targetPercent: number;
  period: SlaPeriod;
  createdAt: number;
  updatedAt: number;
}

function toTarget(r: SlaTargetRow): SlaTarget {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    monitorIds: fromJson<string[]>(r.monitor_ids),
    targetPercent: Number(r.target_percent),
    period: r.period as SlaPeriod,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(t: SlaTarget): SlaTargetRow {
  return {
    id: t.id,
    organization_id: t.organizationId,
    name: t.name,
    monitor_ids: toJson(t.monitorIds),
    target_percent: t.targetPercent,
    period: t.period,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
  };
}

export class SlaTargetsRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<ReportsTables>();
  }

  async insert(target: SlaTarget): Promise<void> {
    await this.db.insertInto('sla_target').values(toRow(target)).execute();
  }

  async update(target: SlaTarget): Promise<void> {
    const { id, organization_id, created_at: _createdAt, ...rest } = toRow(target);
    await this.db
      .updateTable('sla_target')
      .set(rest)
      .where('id', '=', id)
      .where('organization_id', '=', organization_id)
      .execute();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('sla_target')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async find(organizationId: string, id: string): Promise<SlaTarget | null> {
    const row = await this.db
      .selectFrom('sla_target')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toTarget(row) : null;
  }

  /** Oldest first, after the id `after`. */
  async list(organizationId: string, after: string | undefined, limit: number): Promise<SlaTarget[]> {
    let q = this.db.selectFrom('sla_target').selectAll().where('organization_id', '=', organizationId);
    if (after) q = q.where('id', '>', after);
    return (await q.orderBy('id').limit(limit).execute()).map(toTarget);
  }
}
