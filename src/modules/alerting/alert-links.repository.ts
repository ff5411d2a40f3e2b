import { sql, type RawBuilder } from 'kysely';
import { param, type Database, type Dialect, type PrecompiledQueries } from '../../platform/db/index.ts';
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
/** Up to this many monitor ids, `destinationIdsOf` is compiled once per count (a list page has at most 200). */
const PRECOMPILED_IDS = 200;

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
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
    this.db = database.tables<AlertingTables>();
  }

  /**
   * Destination ids per monitor id, in destination id order (monitors without links are absent). With `queries`, up
   * to PRECOMPILED_IDS ids, the statement is built and compiled once per count there: every monitor list page reads
   * its links here.
   */
  async destinationIdsOf(
    organizationId: string,
    monitorIds: readonly string[],
    queries?: PrecompiledQueries,
  ): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (monitorIds.length === 0) return out;
    const ids = [...new Set(monitorIds)];
    const select = (org: string, values: readonly string[]) =>
      this.db
        .selectFrom('monitor_destination')
        .select(['monitor_id', 'destination_id'])
        .where('organization_id', '=', org)
        .where('monitor_id', 'in', [...values])
        .orderBy('destination_id');
    const rows =
      queries === undefined || ids.length > PRECOMPILED_IDS
        ? await select(organizationId, ids).execute()
        : await queries.run<{ monitor_id: string; destination_id: string }>(
            this.database.tables<unknown>(),
            `alertLinks.destinationIdsOf:${this.database.dialect}:${ids.length}`,
            () =>
              select(
                param('organizationId'),
                ids.map((_, i) => param(`id${i}`)),
              ),
            { organizationId, ...Object.fromEntries(ids.map((id, i) => [`id${i}`, id])) },
          );
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
