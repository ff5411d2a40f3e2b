import type { Clock } from '../../platform/clock.ts';
import { decodeIdCursor, pageOf } from '../../platform/cursor.ts';
import { toIso } from '../../platform/clock.ts';
import { CSV_BOM, csvLine } from '../../platform/csv.format.ts';
import { PrecompiledQueries, type Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { diffViews } from './audit.changes.ts';
import { AuditRepository } from './audit.repository.ts';
import type { AuditEntryRow } from './audit.tables.ts';
import type { AuditActorType, AuditChange, AuditEntry, AuditFilter, AuditOrigin, AuditTrail } from './audit.types.ts';

export interface AuditLogDeps {
  database: Database;
  clock: Clock;
}

/** Rows an export reads per statement: constant memory whatever the log's size. */
const EXPORT_PAGE = 1000;

export const AUDIT_CSV_HEADER = [
  'id',
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
] as const;

function entryOf(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    organizationId: row.organization_id,
    at: row.at,
    actor: { type: row.actor_type as AuditActorType, id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    changes: JSON.parse(row.changes) as AuditEntry['changes'],
    ip: row.ip,
    requestId: row.request_id,
  };
}

/** The audit log (DECISIONS §21): entries written in the changing transaction, listed and exported per organization. */
export class AuditLog {
  private readonly deps: AuditLogDeps;
  /** The entry's insert, compiled once (one per recorded change). */
  private readonly queries = new PrecompiledQueries();
  constructor(deps: AuditLogDeps) {
    this.deps = deps;
  }

  /** A recorder bound to one origin, for a ServiceContext (or a CLI command, a config apply). */
  trail(origin: AuditOrigin): AuditTrail {
    return {
      origin,
      record: (db, change) => this.record(db, origin, change),
      note: (change) => this.record(this.deps.database, origin, change),
    };
  }

  /** Writes one entry through `db`: pass the change's transaction handle so the entry shares its fate. */
  async record(db: Database, origin: AuditOrigin, change: AuditChange): Promise<void> {
    const at = this.deps.clock.now();
    const changes = change.changes ?? diffViews(change.before, change.after, change.secretFields);
    await new AuditRepository(db).insert(
      {
        id: newId('aud', at),
        organization_id: change.organizationId,
        at,
        actor_type: origin.actor.type,
        actor_id: origin.actor.id,
        actor_name: origin.actor.name,
        action: change.action,
        target_type: change.target.type,
        target_id: change.target.id,
        changes: JSON.stringify(changes),
        ip: origin.ip,
        request_id: origin.requestId,
      },
      this.queries,
    );
  }

  /** One page of the organization's entries, newest first. */
  async list(
    organizationId: string,
    filter: AuditFilter,
    page: { limit: number; cursor?: string | undefined },
  ): Promise<{ data: AuditEntry[]; next_cursor: string | null }> {
    const before = decodeIdCursor(page.cursor);
    const rows = await new AuditRepository(this.deps.database).list(organizationId, filter, page.limit + 1, before);
    const result = pageOf(rows, page.limit, (r) => r.id);
    return { data: result.data.map(entryOf), next_cursor: result.next_cursor };
  }

  /** Every matching entry as CSV, newest first, read in keyset pages as the consumer takes them. */
  async *exportCsv(organizationId: string, filter: AuditFilter): AsyncGenerator<string> {
    yield CSV_BOM + csvLine(AUDIT_CSV_HEADER);
    const repository = new AuditRepository(this.deps.database);
    let before: string | undefined;
    for (;;) {
      const rows = await repository.list(organizationId, filter, EXPORT_PAGE, before);
      if (rows.length === 0) return;
      yield rows.map(csvRowOf).join('');
      if (rows.length < EXPORT_PAGE) return;
      before = rows[rows.length - 1]!.id;
    }
  }
}

function csvRowOf(row: AuditEntryRow): string {
  return csvLine([
    row.id,
    toIso(row.at),
    row.actor_type,
    row.actor_id,
    row.actor_name,
    row.action,
    row.target_type,
    row.target_id,
    row.changes,
    row.ip,
    row.request_id,
  ]);
}
