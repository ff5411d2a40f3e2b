import { sql } from 'kysely';
import { fromJson, toJson, type Database } from '../../platform/db/index.ts';
import type { IncidentRow, IncidentsTables } from './incidents.tables.ts';
import type {
  Incident,
  IncidentFilter,
  IncidentSource,
  IncidentStatus,
  TimelineEntry,
  TimelineType,
} from './incident.types.ts';

function toIncident(row: IncidentRow): Incident {
  return {
    id: row.id,
    organizationId: row.organization_id,
    number: Number(row.number),
    title: row.title,
    source: row.source as IncidentSource,
    monitorId: row.monitor_id,
    cause: row.cause,
    status: row.status as IncidentStatus,
    openedAt: Number(row.opened_at),
    downSince: row.down_since === null ? null : Number(row.down_since),
    acknowledgedAt: row.acknowledged_at === null ? null : Number(row.acknowledged_at),
    acknowledgedBy: row.acknowledged_by,
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    resolvedBy: row.resolved_by,
    lastReminderAt: row.last_reminder_at === null ? null : Number(row.last_reminder_at),
    blockedBy: row.blocked_by === null ? null : fromJson<string[]>(row.blocked_by),
    suppressedBy: row.suppressed_by,
    alertReleaseDueAt: row.alert_release_due_at === null ? null : Number(row.alert_release_due_at),
    alertReleasedAt: row.alert_released_at === null ? null : Number(row.alert_released_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toRow(i: Incident): IncidentRow {
  return {
    id: i.id,
    organization_id: i.organizationId,
    number: i.number,
    title: i.title,
    source: i.source,
    monitor_id: i.monitorId,
    cause: i.cause,
    status: i.status,
    opened_at: i.openedAt,
    down_since: i.downSince,
    acknowledged_at: i.acknowledgedAt,
    acknowledged_by: i.acknowledgedBy,
    resolved_at: i.resolvedAt,
    resolved_by: i.resolvedBy,
    last_reminder_at: i.lastReminderAt,
    blocked_by: i.blockedBy === null ? null : toJson(i.blockedBy),
    suppressed_by: i.suppressedBy,
    alert_release_due_at: i.alertReleaseDueAt,
    alert_released_at: i.alertReleasedAt,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
  };
}

/** Where a keyset page of incidents in opening order ends. */
export interface IncidentKey {
  openedAt: number;
  id: string;
}

/** Storage of incidents, their timelines and per-organization numbers. Build it from a transaction handle. */
export class IncidentsRepository {
  private readonly db;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.db = database.tables<IncidentsTables>();
    this.dialect = database.dialect;
  }

  /** The next number of this organization; call inside the transaction that inserts the incident. */
  async allocateNumber(organizationId: string): Promise<number> {
    const row = await this.db
      .insertInto('incident_counter')
      .values({ organization_id: organizationId, last_number: 1 })
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet((eb) => ({ last_number: eb('incident_counter.last_number', '+', 1) })),
      )
      .returning('last_number')
      .executeTakeFirstOrThrow();
    return Number(row.last_number);
  }

  /** Gives back a number taken in this transaction when its incident was not inserted (no gap). */
  async releaseNumber(organizationId: string, number: number): Promise<void> {
    await this.db
      .updateTable('incident_counter')
      .set({ last_number: number - 1 })
      .where('organization_id', '=', organizationId)
      .where('last_number', '=', number)
      .execute();
  }

  /** Inserts unless a unique index refuses it (another open incident for the monitor); true when inserted. */
  async insertIfNoConflict(incident: Incident): Promise<boolean> {
    const rows = await this.db
      .insertInto('incident')
      .values(toRow(incident))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  async insert(incident: Incident): Promise<void> {
    await this.db.insertInto('incident').values(toRow(incident)).execute();
  }

  /** Many incidents in multi-row inserts (imports and benchmark seeding); numbers must already be allocated. */
  async insertMany(incidents: readonly Incident[]): Promise<void> {
    // 500 rows × 21 columns stays under both dialects' bound-parameter limits.
    for (let i = 0; i < incidents.length; i += 500) {
      await this.db
        .insertInto('incident')
        .values(incidents.slice(i, i + 500).map(toRow))
        .execute();
    }
  }

  async find(organizationId: string, id: string): Promise<Incident | null> {
    const row = await this.db
      .selectFrom('incident')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toIncident(row) : null;
  }

  /** The open incident a monitor's outage opened, if any. */
  async findOpenForMonitor(monitorId: string): Promise<Incident | null> {
    const row = await this.db
      .selectFrom('incident')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('source', '=', 'monitor')
      .where('status', '<>', 'resolved')
      .executeTakeFirst();
    return row ? toIncident(row) : null;
  }

  /** Unresolved incidents of every organization, counted by status (for the metrics scrape). */
  async countOpenByStatus(): Promise<Array<{ status: IncidentStatus; count: number }>> {
    const rows = await this.db
      .selectFrom('incident')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
      .where('status', '<>', 'resolved')
      .groupBy('status')
      .execute();
    return rows.map((r) => ({ status: r.status as IncidentStatus, count: Number(r.count) }));
  }

  /** The latest incident of a monitor (any status). */
  async findLatestForMonitor(monitorId: string): Promise<Incident | null> {
    const row = await this.db
      .selectFrom('incident')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .where('source', '=', 'monitor')
      .orderBy('opened_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toIncident(row) : null;
  }

  /** Open incidents (any source) tied to these monitors, oldest first. */
  async listOpenForMonitors(monitorIds: readonly string[]): Promise<Incident[]> {
    if (monitorIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('incident')
      .selectAll()
      .where('monitor_id', 'in', [...monitorIds])
      .where('status', '<>', 'resolved')
      .orderBy('opened_at')
      .execute();
    return rows.map(toIncident);
  }

  /** Resolved incidents (any source) tied to these monitors that were still open at `from` or later, newest first. */
  async listResolvedForMonitorsSince(monitorIds: readonly string[], from: number, limit: number): Promise<Incident[]> {
    if (monitorIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('incident')
      .selectAll()
      .where('monitor_id', 'in', [...monitorIds])
      .where('status', '=', 'resolved')
      .where('resolved_at', '>=', from)
      .orderBy('opened_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toIncident);
  }

  /** A page of open monitor incidents of every organization, by id (for the reminder role). */
  async listOpenMonitorIncidents(afterId: string | undefined, limit: number): Promise<Incident[]> {
    let q = this.db
      .selectFrom('incident')
      .selectAll()
      .where('status', '<>', 'resolved')
      .where('source', '=', 'monitor');
    if (afterId) q = q.where('id', '>', afterId);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map(toIncident);
  }

  /** Newest first; `before` is the id of the last row of the previous page. */
  async list(
    organizationId: string,
    filter: IncidentFilter,
    before: string | undefined,
    limit: number,
  ): Promise<Incident[]> {
    let q = this.db.selectFrom('incident').selectAll().where('organization_id', '=', organizationId);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.monitorId) q = q.where('monitor_id', '=', filter.monitorId);
    if (filter.source) q = q.where('source', '=', filter.source);
    const from = filter.from;
    if (from !== undefined) q = q.where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>=', from)]));
    if (filter.to !== undefined) q = q.where('opened_at', '<', filter.to);
    if (before) q = q.where('id', '<', before);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toIncident);
  }

  /**
   * How many incidents of the organization opened in each bucket of `step` ms in [from, to), per monitor (null for
   * incidents of no monitor), counted by the database over the (organization_id, opened_at) index: the caller drops
   * the monitors an actor may not see and sums the rest. Buckets are keyed by their start (epoch ms, UTC).
   */
  async openedCounts(
    organizationId: string,
    from: number,
    to: number,
    step: number,
  ): Promise<Array<{ bucket: number; monitorId: string | null; opened: number }>> {
    // A literal, not a parameter: PostgreSQL matches the grouped expression to the selected one by its text.
    const bucket = sql<number | string>`opened_at - (opened_at % ${sql.lit(Math.trunc(step))})`;
    const rows = await this.db
      .selectFrom('incident')
      .select((eb) => [bucket.as('bucket'), 'monitor_id', eb.fn.countAll<number | string>().as('opened')])
      .where('organization_id', '=', organizationId)
      .where('opened_at', '>=', from)
      .where('opened_at', '<', to)
      .groupBy([bucket, 'monitor_id'])
      .execute();
    return rows.map((r) => ({ bucket: Number(r.bucket), monitorId: r.monitor_id, opened: Number(r.opened) }));
  }

  /**
   * Incidents of the organization whose time overlaps [from, to) (opened before `to`, not resolved at or before
   * `from`), in opening order (opened_at, then id), after the row `after` (keyset on the (organization_id,
   * opened_at, id) index, no OFFSET). For reports and the export.
   */
  async pageOverlapping(
    organizationId: string,
    window: { from: number; to: number; monitorIds?: readonly string[] },
    after: IncidentKey | undefined,
    limit: number,
  ): Promise<Incident[]> {
    let q = this.db
      .selectFrom('incident')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('opened_at', '<', window.to)
      .where((eb) => eb.or([eb('resolved_at', 'is', null), eb('resolved_at', '>', window.from)]));
    if (window.monitorIds !== undefined) q = q.where('monitor_id', 'in', [...window.monitorIds]);
    // A row-value comparison, which both databases turn into a range of the index (an OR of the two conditions
    // made them scan from the first incident on every page: quadratic over 100,000 incidents).
    if (after !== undefined) {
      q = q.where((eb) => eb(eb.refTuple('opened_at', 'id'), '>', eb.tuple(after.openedAt, after.id)));
    }
    const rows = await q.orderBy('opened_at').orderBy('id').limit(limit).execute();
    return rows.map(toIncident);
  }

  /** Moves an unresolved incident to acknowledged; false when it was not `opened`. */
  async acknowledge(id: string, by: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('incident')
      .set({ status: 'acknowledged', acknowledged_at: at, acknowledged_by: by, updated_at: at })
      .where('id', '=', id)
      .where('status', '=', 'opened')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Resolves an unresolved incident; false when it was already resolved (someone else won). */
  async resolve(id: string, by: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('incident')
      .set({ status: 'resolved', resolved_at: at, resolved_by: by, updated_at: at })
      .where('id', '=', id)
      .where('status', '<>', 'resolved')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Compare-and-set of the last reminder time, so two processes never remind twice for one interval. */
  /** A held incident's alert goes out once: true for the one caller that marked it. */
  async markAlertReleased(id: string, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('incident')
      .set({ alert_released_at: at, updated_at: at })
      .where('id', '=', id)
      .where('alert_released_at', 'is', null)
      .where('blocked_by', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** When a held incident's alert goes out if its monitor is still down (null: not while a parent holds it). */
  async setReleaseDue(id: string, dueAt: number | null): Promise<void> {
    await this.db
      .updateTable('incident')
      .set({ alert_release_due_at: dueAt })
      .where('id', '=', id)
      .where('alert_released_at', 'is', null)
      .execute();
  }

  /** Open held incidents whose release is due at `now`, oldest due first. */
  async listReleaseDue(now: number, limit: number): Promise<Incident[]> {
    const rows = await this.db
      .selectFrom('incident')
      .selectAll()
      .where('alert_release_due_at', 'is not', null)
      .where('alert_released_at', 'is', null)
      .where('alert_release_due_at', '<=', now)
      .where('status', '<>', 'resolved')
      .orderBy('alert_release_due_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toIncident);
  }

  /**
   * Serializes the dependency decisions (a child held because its parent is down; a parent's recovery releasing its
   * children) until the transaction ends, so that a child going down and its parent recovering in two concurrent
   * batches cannot each miss the other. PostgreSQL only (SQLite has one writer). One key for the installation,
   * taken only for monitors with dependencies and before their incident writes: a transaction waiting for it holds no
   * incident row another holder could need (the batches' monitor locks keep their monitors apart).
   */
  async lockDependencyDecisions(): Promise<void> {
    if (this.dialect !== 'postgres') return;
    await sql`select pg_advisory_xact_lock(hashtextextended('tocsin:monitor-dependencies', 7406))`.execute(this.db);
  }

  async markReminded(id: string, previous: number | null, at: number): Promise<boolean> {
    let q = this.db
      .updateTable('incident')
      .set({ last_reminder_at: at })
      .where('id', '=', id)
      .where('status', '<>', 'resolved');
    q = previous === null ? q.where('last_reminder_at', 'is', null) : q.where('last_reminder_at', '=', previous);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async addTimeline(incident: Pick<Incident, 'id' | 'organizationId'>, entry: TimelineEntry): Promise<void> {
    await this.db
      .insertInto('incident_event')
      .values({
        incident_id: incident.id,
        organization_id: incident.organizationId,
        type: entry.type,
        at: entry.at,
        actor: entry.actor,
        message: entry.message,
      } as IncidentsTables['incident_event'])
      .execute();
  }

  async timeline(incidentId: string): Promise<TimelineEntry[]> {
    const rows = await this.db
      .selectFrom('incident_event')
      .select(['type', 'at', 'actor', 'message'])
      .where('incident_id', '=', incidentId)
      .orderBy('seq')
      .execute();
    return rows.map((r) => ({ type: r.type as TimelineType, at: Number(r.at), actor: r.actor, message: r.message }));
  }
}
