import { sql, type RawBuilder } from 'kysely';
import type { Database, Dialect } from '../../platform/db/index.ts';
import type { AlertingTables } from './alerting.tables.ts';

/**
 * A link insert whose monitor or destination no longer exists (deleted after the caller checked it): the foreign key
 * refuses it (PostgreSQL 23503; SQLite SQLITE_CONSTRAINT_FOREIGNKEY) and the transaction rolls back.
 */
export function isMissingLinkEnd(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * The monitor ↔ destination links (`monitor_destination`): one row per link, so attaching from many requests and
 * processes at once never loses one (each writes its own row; there is no array to read-modify-write).
 * Build it from the transaction handle to join the caller's change.
 */
export class AlertLinksRepository {
  /**
   * The destination ids of the row `monitor` of the surrounding query, in destination id order, as a JSON array
   * (SQLite: its text; PostgreSQL: json, which pg parses): lets a monitor read bring its links in the same
   * statement (one SQLite read transaction, one PostgreSQL round trip) while these rows stay alerting's.
   */
  static destinationIdsJsonOfMonitorRow(dialect: Dialect): RawBuilder<string | string[]> {
    return dialect === 'postgres'
      ? sql`(select coalesce(json_agg(md.destination_id order by md.destination_id), '[]'::json)
          from monitor_destination md
          where md.organization_id = monitor.organization_id and md.monitor_id = monitor.id)`
      : sql`(select json_group_array(md.destination_id order by md.destination_id)
          from monitor_destination md
          where md.organization_id = monitor.organization_id and md.monitor_id = monitor.id)`;
  }

  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<AlertingTables>();
  }

  /** Destination ids per monitor id, in destination id order (monitors without links are absent). */
  async destinationIdsOf(organizationId: string, monitorIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (monitorIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('monitor_destination')
      .select(['monitor_id', 'destination_id'])
      .where('organization_id', '=', organizationId)
      .where('monitor_id', 'in', [...new Set(monitorIds)])
      .orderBy('destination_id')
      .execute();
    for (const r of rows) out.set(r.monitor_id, [...(out.get(r.monitor_id) ?? []), r.destination_id]);
    return out;
  }

  /** Monitor ids per destination id, in monitor id order (destinations without links are absent). */
  async monitorIdsOf(organizationId: string, destinationIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (destinationIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('monitor_destination')
      .select(['monitor_id', 'destination_id'])
      .where('organization_id', '=', organizationId)
      .where('destination_id', 'in', [...new Set(destinationIds)])
      .orderBy('monitor_id')
      .execute();
    for (const r of rows) out.set(r.destination_id, [...(out.get(r.destination_id) ?? []), r.monitor_id]);
    return out;
  }

  /** Adds the links that do not exist yet (an existing one is left as it is). */
  async add(organizationId: string, links: ReadonlyArray<{ monitorId: string; destinationId: string }>, at: number) {
    if (links.length === 0) return;
    await this.db
      .insertInto('monitor_destination')
      .values(
        links.map((l) => ({
          organization_id: organizationId,
          monitor_id: l.monitorId,
          destination_id: l.destinationId,
          created_at: at,
        })),
      )
      .onConflict((oc) => oc.columns(['monitor_id', 'destination_id']).doNothing())
      .execute();
  }

  /** Removes the monitor's links to destinations other than `keep`. */
  async removeForMonitorExcept(organizationId: string, monitorId: string, keep: readonly string[]): Promise<void> {
    let q = this.db
      .deleteFrom('monitor_destination')
      .where('organization_id', '=', organizationId)
      .where('monitor_id', '=', monitorId);
    if (keep.length > 0) q = q.where('destination_id', 'not in', [...keep]);
    await q.execute();
  }

  /** Removes the destination's links to the monitors in `monitorIds`. */
  async removeForDestination(
    organizationId: string,
    destinationId: string,
    monitorIds: readonly string[],
  ): Promise<void> {
    if (monitorIds.length === 0) return;
    await this.db
      .deleteFrom('monitor_destination')
      .where('organization_id', '=', organizationId)
      .where('destination_id', '=', destinationId)
      .where('monitor_id', 'in', [...monitorIds])
      .execute();
  }
}
