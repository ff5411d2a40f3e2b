import type { Database, PrecompiledQueries } from '../../platform/db/index.ts';
import { fromJson, param, toBool, toJson } from '../../platform/db/index.ts';
import type { MaintenanceSchedule, MaintenanceWindow } from './maintenance.types.ts';
import type { MaintenanceHeldRow, MaintenanceTables, MaintenanceWindowRow } from './maintenance.tables.ts';

function toWindow(r: MaintenanceWindowRow): MaintenanceWindow {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    description: r.description,
    monitorIds: fromJson<string[]>(r.monitor_ids),
    tags: fromJson<string[]>(r.tags),
    schedule: fromJson<MaintenanceSchedule>(r.schedule),
    timezone: r.timezone,
    suppressAlerts: toBool(r.suppress_alerts),
    excludeFromSla: toBool(r.exclude_from_sla),
    statusPageIds: fromJson<string[]>(r.status_page_ids),
    announceMinutesBefore: Number(r.announce_minutes_before),
    earlyEnds: fromJson<Array<{ start: number; endedAt: number }>>(r.early_ends),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function toRow(w: MaintenanceWindow): MaintenanceWindowRow {
  return {
    id: w.id,
    organization_id: w.organizationId,
    name: w.name,
    description: w.description,
    monitor_ids: toJson(w.monitorIds),
    tags: toJson(w.tags),
    schedule: toJson(w.schedule),
    timezone: w.timezone,
    suppress_alerts: w.suppressAlerts ? 1 : 0,
    exclude_from_sla: w.excludeFromSla ? 1 : 0,
    status_page_ids: toJson(w.statusPageIds),
    announce_minutes_before: w.announceMinutesBefore,
    early_ends: toJson(w.earlyEnds),
    created_at: w.createdAt,
    updated_at: w.updatedAt,
  };
}

export interface HeldOutage {
  monitorId: string;
  organizationId: string;
  windowId: string;
  heldAt: number;
  cause: string | null;
}

const toHeld = (r: MaintenanceHeldRow): HeldOutage => ({
  monitorId: r.monitor_id,
  organizationId: r.organization_id,
  windowId: r.window_id,
  heldAt: Number(r.held_at),
  cause: r.cause,
});

export class MaintenanceRepository {
  private readonly db;
  private readonly database: Database;
  constructor(database: Database) {
    this.database = database;
    this.db = database.tables<MaintenanceTables>();
  }

  async insert(w: MaintenanceWindow): Promise<void> {
    await this.db.insertInto('maintenance_window').values(toRow(w)).execute();
  }

  async update(w: MaintenanceWindow): Promise<void> {
    const { id: _id, organization_id: _org, created_at: _created, ...rest } = toRow(w);
    await this.db.updateTable('maintenance_window').set(rest).where('id', '=', w.id).execute();
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('maintenance_window')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async find(organizationId: string, id: string): Promise<MaintenanceWindow | null> {
    const row = await this.db
      .selectFrom('maintenance_window')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toWindow(row) : null;
  }

  /** Every window of an organization, by id (an organization has at most a few thousand). */
  async listForOrganization(organizationId: string): Promise<MaintenanceWindow[]> {
    const rows = await this.db
      .selectFrom('maintenance_window')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute();
    return rows.map(toWindow);
  }

  /**
   * What changes with any write of the organization's windows: their number (a create, a delete) and the greatest and
   * sum of their `updated_at` (every update and end-early sets it later than before, see MaintenanceService). Far
   * cheaper than the rows themselves: the gate reads it on each down and reads the rows only when it moved.
   */
  async versionOf(organizationId: string, queries: PrecompiledQueries): Promise<string> {
    // Every monitor read and list asks this (the status `maintenance` they show): built and compiled once in `queries`.
    const [row] = await queries.run(
      this.database.tables<unknown>(),
      `maintenance.versionOf:${this.database.dialect}`,
      () =>
        this.db
          .selectFrom('maintenance_window')
          .select((eb) => [
            eb.fn.countAll().as('n'),
            eb.fn.max('updated_at').as('latest'),
            eb.fn.sum('updated_at').as('total'),
          ])
          .where('organization_id', '=', param('organizationId')),
      { organizationId },
    );
    return `${String(row!.n)}/${String(row!.latest)}/${String(row!.total)}`;
  }

  /** One page of every organization's windows, by id (the emitting role's scan). */
  async pageAll(afterId: string | undefined, limit: number): Promise<MaintenanceWindow[]> {
    let q = this.db.selectFrom('maintenance_window').selectAll().orderBy('id').limit(limit);
    if (afterId !== undefined) q = q.where('id', '>', afterId);
    return (await q.execute()).map(toWindow);
  }

  /** True when this call recorded the emission (false: already emitted, by this or another process). */
  async tryRecordEmission(e: {
    windowId: string;
    occurrenceStart: number;
    kind: 'started' | 'ended';
    organizationId: string;
    at: number;
  }): Promise<boolean> {
    const r = await this.db
      .insertInto('maintenance_emission')
      .values({
        window_id: e.windowId,
        occurrence_start: e.occurrenceStart,
        kind: e.kind,
        organization_id: e.organizationId,
        emitted_at: e.at,
      })
      .onConflict((oc) => oc.columns(['window_id', 'occurrence_start', 'kind']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async emitted(windowId: string, occurrenceStart: number, kind: 'started' | 'ended'): Promise<boolean> {
    const row = await this.db
      .selectFrom('maintenance_emission')
      .select('kind')
      .where('window_id', '=', windowId)
      .where('occurrence_start', '=', occurrenceStart)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Holds a monitor's outage (keeps the first hold while one exists). */
  async hold(h: HeldOutage): Promise<void> {
    await this.db
      .insertInto('maintenance_held')
      .values({
        monitor_id: h.monitorId,
        organization_id: h.organizationId,
        window_id: h.windowId,
        held_at: h.heldAt,
        cause: h.cause,
      })
      .onConflict((oc) => oc.column('monitor_id').doNothing())
      .execute();
  }

  async findHeld(monitorId: string): Promise<HeldOutage | null> {
    const row = await this.db
      .selectFrom('maintenance_held')
      .selectAll()
      .where('monitor_id', '=', monitorId)
      .executeTakeFirst();
    return row ? toHeld(row) : null;
  }

  async heldOfOrganization(organizationId: string): Promise<HeldOutage[]> {
    const rows = await this.db
      .selectFrom('maintenance_held')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('monitor_id')
      .execute();
    return rows.map(toHeld);
  }

  async organizationsWithHolds(): Promise<string[]> {
    const rows = await this.db.selectFrom('maintenance_held').select('organization_id').distinct().execute();
    return rows.map((r) => r.organization_id);
  }

  /** True when this call removed the hold (so only one caller judges it). */
  async release(monitorId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('maintenance_held').where('monitor_id', '=', monitorId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
