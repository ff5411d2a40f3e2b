import type { Kysely } from 'kysely';
import { runOneRow, type Database, type PrecompiledQueries } from '../../platform/db/index.ts';
import type { AuditFilter } from './audit.types.ts';
import type { AuditEntryRow, AuditTables } from './audit.tables.ts';

const AUDIT_COLUMNS = [
  'id',
  'organization_id',
  'at',
  'actor_type',
  'actor_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'changes',
  'ip',
  'request_id',
] as const satisfies ReadonlyArray<keyof AuditEntryRow>;

export class AuditRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<AuditTables>();
  }

  /** With `queries`, the insert is compiled once (every change records one: a PATCH's statements, issue 36 item 8). */
  async insert(row: AuditEntryRow, queries?: PrecompiledQueries): Promise<void> {
    await runOneRow(queries, this.db as unknown as Kysely<unknown>, 'audit.insert', AUDIT_COLUMNS, row, (r) =>
      this.db.insertInto('audit_entry').values(r),
    );
  }

  /** Newest first: up to `limit` entries of the organization older (by id) than `beforeId`, matching the filter. */
  async list(organizationId: string, filter: AuditFilter, limit: number, beforeId?: string): Promise<AuditEntryRow[]> {
    let q = this.db.selectFrom('audit_entry').selectAll().where('organization_id', '=', organizationId);
    if (filter.actorId !== undefined) q = q.where('actor_id', '=', filter.actorId);
    if (filter.action !== undefined) q = q.where('action', '=', filter.action);
    if (filter.targetType !== undefined) q = q.where('target_type', '=', filter.targetType);
    if (filter.targetId !== undefined) q = q.where('target_id', '=', filter.targetId);
    if (filter.from !== undefined) q = q.where('at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('at', '<', filter.to);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({ ...r, at: Number(r.at) }));
  }
}
