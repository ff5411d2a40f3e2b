import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { fromJson, toJson } from '../../platform/db/index.ts';
import { MonitorReadCache } from './monitor.read-cache.ts';
import type { MonitorRow, MonitorsTables } from './monitors.tables.ts';
import type { Monitor, MonitorFilter, MonitorStatus, MonitorType } from './monitor.types.ts';

/** The connection-local read cache's key (see MonitorReadCache). */
const READ_CACHE = Symbol('monitors.read-cache');

function toMonitor(row: MonitorRow): Monitor {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    type: row.type as MonitorType,
    target: row.target,
    intervalSeconds: row.interval_seconds,
    regionCodes: fromJson<string[]>(row.region_codes),
    tags: fromJson<string[]>(row.tags),
    environment: row.environment,
    config: fromJson<Monitor['config']>(row.config),
    paused: row.paused === 1,
    status: row.status as MonitorStatus,
    statusChangedAt: row.status_changed_at,
    lastCheckedAt: row.last_checked_at,
    heartbeatToken: row.heartbeat_token,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(m: Monitor): MonitorRow {
  return {
    id: m.id,
    organization_id: m.organizationId,
    name: m.name,
    type: m.type,
    target: m.target,
    interval_seconds: m.intervalSeconds,
    region_codes: toJson(m.regionCodes),
    tags: toJson(m.tags),
    environment: m.environment,
    config: toJson(m.config),
    paused: m.paused ? 1 : 0,
    status: m.status,
    status_changed_at: m.statusChangedAt,
    last_checked_at: m.lastCheckedAt,
    heartbeat_token: m.heartbeatToken,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
  };
}

/** Which monitors a caller may see: its organization, and (for keys) its environments. */
export interface MonitorScope {
  organizationId: string;
  environments?: readonly string[];
}

export class MonitorsRepository {
  private readonly db;
  private readonly database: Database;
  private readonly dialect: Database['dialect'];
  /** SQLite only; every write below forgets the ids it wrote. */
  private readonly cache: MonitorReadCache | null;
  private readonly clock: Clock | undefined;
  /**
   * `clock`: lets the read cache check for other connections' commits at most every 100 ms instead of on
   * every read (see MonitorReadCache); the service's repository gets it, the engine's need not.
   */
  constructor(database: Database, options: { clock?: Clock } = {}) {
    this.database = database;
    this.clock = options.clock;
    this.db = database.tables<MonitorsTables>();
    this.dialect = database.dialect;
    this.cache =
      database.dialect === 'sqlite' ? database.connectionLocal(READ_CACHE, () => new MonitorReadCache()) : null;
  }

  /** `haystack` contains `needle`, case-sensitively, on both dialects. */
  private contains(haystack: RawBuilder<unknown>, needle: string): RawBuilder<SqlBool> {
    return this.dialect === 'postgres'
      ? sql<SqlBool>`strpos(${haystack}, ${needle}) > 0`
      : sql<SqlBool>`instr(${haystack}, ${needle}) > 0`;
  }

  async insert(monitor: Monitor): Promise<void> {
    await this.db.insertInto('monitor').values(toRow(monitor)).execute();
    this.cache?.forget([monitor.id]);
  }

  async update(monitor: Monitor): Promise<void> {
    const { id, organization_id, created_at: _createdAt, ...rest } = toRow(monitor);
    await this.db
      .updateTable('monitor')
      .set(rest)
      .where('id', '=', id)
      .where('organization_id', '=', organization_id)
      .execute();
    this.cache?.forget([id]);
  }

  /** Pausing or resuming: only the columns that change (the config, and so any link kept in it, stays). */
  async setPaused(monitor: Monitor): Promise<void> {
    await this.db
      .updateTable('monitor')
      .set({
        paused: monitor.paused ? 1 : 0,
        status: monitor.status,
        status_changed_at: monitor.statusChangedAt,
        updated_at: monitor.updatedAt,
      })
      .where('id', '=', monitor.id)
      .where('organization_id', '=', monitor.organizationId)
      .execute();
    this.cache?.forget([monitor.id]);
  }

  async delete(scope: MonitorScope, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('monitor')
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    this.cache?.forget([id]);
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The hottest read of the API. Its SQL is compiled once and reused with new parameters: building the
   * query tree on every call cost more than running it. The environment check is done on the row.
   */
  async find(scope: MonitorScope, id: string): Promise<Monitor | null> {
    let monitor = this.findNow(scope.organizationId, id);
    if (monitor === undefined) {
      const [row] = await this.database.selectRows<MonitorRow>(this.findSql(), [scope.organizationId, id]);
      monitor = row ? toMonitor(row) : null;
    }
    if (!monitor || (scope.environments && !scope.environments.includes(monitor.environment))) return null;
    return monitor;
  }

  /** From the read cache, filling it on a miss (SQLite, no transaction open); `undefined` when it cannot be used now. */
  private findNow(organizationId: string, id: string): Monitor | null | undefined {
    if (!this.cache || !this.database.readsNow()) return undefined;
    const now = this.clock?.now();
    if (this.cache.needsVersionCheck(now)) this.cache.observeVersion(this.database.dataVersionNow()!, now);
    const cached = this.cache.get(id);
    if (cached) return cached.organizationId === organizationId ? cached : null;
    const rows = this.database.selectRowsNow<MonitorRow>(this.findSql(), [organizationId, id])!;
    return rows[0] ? this.cache.set(toMonitor(rows[0])) : null;
  }

  private findSql(): string {
    return (this.compiledFind ??= this.db
      .selectFrom('monitor')
      .selectAll()
      .where('organization_id', '=', '')
      .where('id', '=', '')
      .compile().sql);
  }

  private compiledFind: string | undefined;

  /** Any organization's monitor, for internal roles (scheduler, heartbeats). */
  async findAnywhere(id: string): Promise<Monitor | null> {
    const row = await this.db.selectFrom('monitor').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMonitor(row) : null;
  }

  async findManyAnywhere(ids: readonly string[]): Promise<Monitor[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('monitor')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
    return rows.map(toMonitor);
  }

  async findByHeartbeatToken(token: string): Promise<Monitor | null> {
    const row = await this.db.selectFrom('monitor').selectAll().where('heartbeat_token', '=', token).executeTakeFirst();
    return row ? toMonitor(row) : null;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('monitor')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A page ordered by id (time-sortable), fetching one extra row to know whether another page exists. */
  async list(scope: MonitorScope, filter: MonitorFilter, after: string | undefined, limit: number): Promise<Monitor[]> {
    let q = this.db.selectFrom('monitor').selectAll().where('organization_id', '=', scope.organizationId);
    if (scope.environments) q = q.where('environment', 'in', [...scope.environments]);
    if (filter.environment) q = q.where('environment', '=', filter.environment);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.type) q = q.where('type', '=', filter.type);
    // Substring tests by position, not LIKE: SQLite's LIKE has no default escape character and ignores case,
    // PostgreSQL's does neither, so `_`, `%` and case would behave differently on the two dialects.
    // Tags are a JSON array of strings without quotes or backslashes, so a quoted match is exact.
    if (filter.tag) q = q.where(this.contains(sql.ref('tags'), JSON.stringify(filter.tag)));
    if (filter.q) {
      const needle = filter.q.toLowerCase();
      q = q.where((eb) => eb.or([this.contains(sql`lower(name)`, needle), this.contains(sql`lower(target)`, needle)]));
    }
    if (after) q = q.where('id', '>', after);
    const rows = await q
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    return rows.map(toMonitor);
  }

  /** Monitors that should be checked (not paused), for the scheduler's reconciliation. */
  async listActive(afterId: string | undefined, limit: number): Promise<Monitor[]> {
    let q = this.db.selectFrom('monitor').selectAll().where('paused', '=', 0);
    if (afterId) q = q.where('id', '>', afterId);
    const rows = await q.orderBy('id').limit(limit).execute();
    return rows.map(toMonitor);
  }

  async setStatus(id: string, status: MonitorStatus, at: number): Promise<void> {
    await this.db
      .updateTable('monitor')
      .set({ status, status_changed_at: at, updated_at: at })
      .where('id', '=', id)
      .where('status', '!=', status)
      .execute();
    this.cache?.forget([id]);
  }

  /** Monitors of an organization whose config.alert_destination_ids holds this destination (alerting module). */
  async findByDestination(organizationId: string, destinationId: string): Promise<Monitor[]> {
    // A coarse substring prefilter (`_` may match any character); the exact check is the filter below.
    const rows = await this.db
      .selectFrom('monitor')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('config', 'like', `%${JSON.stringify(destinationId)}%`)
      .orderBy('id')
      .execute();
    return rows.map(toMonitor).filter((m) => m.config.alert_destination_ids.includes(destinationId));
  }

  /** Sets config.alert_destination_ids only (attaching from the destination side). */
  async setAlertDestinationIds(
    organizationId: string,
    id: string,
    destinationIds: readonly string[],
    at: number,
  ): Promise<void> {
    const row = await this.db
      .selectFrom('monitor')
      .select('config')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return;
    const config = { ...fromJson<Record<string, unknown>>(row.config), alert_destination_ids: [...destinationIds] };
    await this.db
      .updateTable('monitor')
      .set({ config: toJson(config), updated_at: at })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    this.cache?.forget([id]);
  }

  async setLastChecked(ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('monitor')
      .set({ last_checked_at: at })
      .where('id', 'in', [...ids])
      .execute();
    this.cache?.forget(ids);
  }
}
