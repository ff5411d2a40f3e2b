import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { fromJson, param, toJson, type PrecompiledQueries } from '../../platform/db/index.ts';
import type { MonitorRow, MonitorsTables } from './monitors.tables.ts';
import type { HeartbeatTarget, Monitor, MonitorFilter, MonitorStatus, MonitorType } from './monitor.types.ts';
import { STATUS_RANK, type ListPosition, type MonitorSort } from './monitor.list.ts';
import { ftsPhraseOf, likeContains, searchNeedleOf, searchTextOf, sortNameOf } from './monitor.search.ts';

const HEARTBEAT_TARGET_COLUMNS = [
  'id',
  'organization_id',
  'type',
  'status',
  'paused',
  'created_at',
  'heartbeat_token',
] as const satisfies ReadonlyArray<keyof MonitorRow>;
type HeartbeatTargetRow = Pick<MonitorRow, (typeof HEARTBEAT_TARGET_COLUMNS)[number]>;

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
    search_text: searchTextOf(m.name, m.target),
    sort_name: sortNameOf(m.name),
  };
}

/**
 * Where a statement's value goes: the value itself (`direct`), or a named placeholder (`placeholder`) for a statement
 * compiled once per shape and run with each call's values (PrecompiledQueries).
 */
type Bind = <T>(name: string, value: T) => T;
const direct: Bind = (_name, value) => value;
// The placeholder stands in for a value of any type until the statement is run with the values: only its SQL is kept.
const placeholder: Bind = <T>(name: string) => param(name) as T;
/** More values than this (a maintenance filter naming many monitors): the list statement is built each time. */
const MAX_PRECOMPILED_VALUES = 64;

/** Which monitors a caller may see: its organization, and (for keys) its environments. */
export interface MonitorScope {
  organizationId: string;
  environments?: readonly string[];
}

export class MonitorsRepository {
  private readonly db;
  private readonly database: Database;
  private readonly dialect: Database['dialect'];
  constructor(database: Database) {
    this.database = database;
    this.db = database.tables<MonitorsTables>();
    this.dialect = database.dialect;
  }

  /** `haystack` contains `needle`, case-sensitively, on both dialects. */
  private contains(haystack: RawBuilder<unknown>, needle: string): RawBuilder<SqlBool> {
    return this.dialect === 'postgres'
      ? sql<SqlBool>`strpos(${haystack}, ${needle}) > 0`
      : sql<SqlBool>`instr(${haystack}, ${needle}) > 0`;
  }

  async insert(monitor: Monitor): Promise<void> {
    await this.db.insertInto('monitor').values(toRow(monitor)).execute();
  }

  async update(monitor: Monitor): Promise<void> {
    const { id, organization_id, created_at: _createdAt, ...rest } = toRow(monitor);
    await this.db
      .updateTable('monitor')
      .set(rest)
      .where('id', '=', id)
      .where('organization_id', '=', organization_id)
      .execute();
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
  }

  async delete(scope: MonitorScope, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('monitor')
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The monitor if it belongs to the scope (its organization and, for keys, its environments). */
  async find(scope: MonitorScope, id: string): Promise<Monitor | null> {
    let q = this.db
      .selectFrom('monitor')
      .selectAll()
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', id);
    if (scope.environments) q = q.where('environment', 'in', [...scope.environments]);
    const row = await q.executeTakeFirst();
    return row ? toMonitor(row) : null;
  }

  /**
   * `find` with the monitor's destination ids selected in the same statement (`linkIds`: the alerting module's
   * correlated subquery), built and compiled once per shape in `queries`: the single read, the API's hottest path.
   */
  async findWithLinks(
    scope: MonitorScope,
    id: string,
    linkIds: (dialect: Database['dialect']) => RawBuilder<string | string[]>,
    queries: PrecompiledQueries,
  ): Promise<{ monitor: Monitor; destinationIds: string[] } | null> {
    const environments = scope.environments ?? null;
    const values: Record<string, string> = { organizationId: scope.organizationId, id };
    environments?.forEach((environment, i) => (values[`environment${i}`] = environment));
    const rows = await queries.run(
      this.database.tables<unknown>(),
      `monitors.findWithLinks:${this.dialect}:${environments?.length ?? 'all'}`,
      () => {
        let q = this.db
          .selectFrom('monitor')
          .selectAll()
          .select(linkIds(this.dialect).as('alert_destination_ids'))
          .where('organization_id', '=', param('organizationId'))
          .where('id', '=', param('id'));
        if (environments)
          q = q.where(
            'environment',
            'in',
            environments.map((_, i) => param(`environment${i}`)),
          );
        // No LIMIT: the id is unique, and a bound `limit ?` made this statement 4× slower on SQLite (measured).
        return q;
      },
      values,
    );
    const row = rows[0];
    if (!row) return null;
    const { alert_destination_ids: ids, ...monitorRow } = row;
    return { monitor: toMonitor(monitorRow), destinationIds: typeof ids === 'string' ? fromJson<string[]>(ids) : ids };
  }

  /**
   * `find`, holding the row locked until the surrounding transaction ends so that no other write to it (a user's
   * change, the check engine's status) commits in between (PostgreSQL: FOR UPDATE, which also reads the latest
   * committed row; SQLite: a no-op write takes the database's write lock first, as BEGIN IMMEDIATE would).
   */
  async findForUpdate(scope: MonitorScope, id: string): Promise<Monitor | null> {
    if (this.dialect === 'postgres') {
      let q = this.db
        .selectFrom('monitor')
        .selectAll()
        .where('organization_id', '=', scope.organizationId)
        .where('id', '=', id);
      if (scope.environments) q = q.where('environment', 'in', [...scope.environments]);
      const row = await q.forUpdate().executeTakeFirst();
      return row ? toMonitor(row) : null;
    }
    await this.db
      .updateTable('monitor')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', id)
      .execute();
    return this.find(scope, id);
  }

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

  /** The current status of each monitor that exists (any organization): the check engine's per-batch read. */
  async statusesAnywhere(ids: readonly string[]): Promise<Map<string, MonitorStatus>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('monitor')
      .select(['id', 'status'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.status as MonitorStatus]));
  }

  /**
   * The monitors of these heartbeat tokens, by token (unknown tokens absent): a ping batch's read, built and compiled
   * once per token count in `queries`. Only what a ping needs: the whole row's JSON columns parsed for every ping of a
   * batch were a tenth of its database work.
   */
  async findByHeartbeatTokens(
    tokens: readonly string[],
    queries: PrecompiledQueries,
  ): Promise<Map<string, HeartbeatTarget>> {
    const out = new Map<string, HeartbeatTarget>();
    for (let i = 0; i < tokens.length; i += 500) {
      const rows = await queries.runRows<HeartbeatTargetRow, { token: string }>(
        this.database.tables<unknown>(),
        `monitors.findByHeartbeatTokens:${this.dialect}`,
        ['token'],
        tokens.slice(i, i + 500).map((token) => ({ token })),
        (placeholders) =>
          this.db
            .selectFrom('monitor')
            .select(HEARTBEAT_TARGET_COLUMNS)
            .where(
              'heartbeat_token',
              'in',
              placeholders.map((p) => p.token),
            ),
      );
      for (const row of rows) {
        out.set(row.heartbeat_token!, {
          id: row.id,
          organizationId: row.organization_id,
          type: row.type as MonitorType,
          status: row.status as MonitorStatus,
          paused: row.paused === 1,
          createdAt: row.created_at,
        });
      }
    }
    return out;
  }

  async count(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('monitor')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The organization's monitors (within the scope) that match the filter. `bind` gives each value's place in the SQL:
   * the value itself, or a named placeholder when the statement is compiled once per shape (`listValues` names the
   * same values).
   */
  private matching(scope: MonitorScope, filter: MonitorFilter, bind: Bind = direct) {
    let q = this.db.selectFrom('monitor').where('organization_id', '=', bind('org', scope.organizationId));
    if (scope.environments)
      q = q.where(
        'environment',
        'in',
        scope.environments.map((e, i) => bind(`env${i}`, e)),
      );
    if (filter.environment) q = q.where('environment', '=', bind('environment', filter.environment));
    if (filter.status) q = q.where('status', '=', bind('status', filter.status));
    if (filter.type) q = q.where('type', '=', bind('type', filter.type));
    if (filter.maintenance) {
      const { monitorIds, tags, match } = filter.maintenance;
      q = q.where((eb) => {
        const covered = eb.or([
          ...(monitorIds.length > 0
            ? [
                eb(
                  'id',
                  'in',
                  monitorIds.map((id, i) => bind(`mid${i}`, id)),
                ),
              ]
            : []),
          ...tags.map((tag, i) => this.contains(sql.ref('tags'), bind(`mtag${i}`, JSON.stringify(tag)))),
        ]);
        const nothing = monitorIds.length === 0 && tags.length === 0;
        // A paused monitor reads as paused, never as in maintenance.
        if (match === 'inside') return nothing ? sql<SqlBool>`1 = 0` : eb.and([eb('paused', '=', 0), covered]);
        return nothing ? sql<SqlBool>`1 = 1` : eb.or([eb('paused', '=', 1), eb.not(covered)]);
      });
    }
    // Substring tests by position, not LIKE: SQLite's LIKE has no default escape character and ignores case,
    // PostgreSQL's does neither, so `_`, `%` and case would behave differently on the two dialects.
    // Tags are a JSON array of strings without quotes or backslashes, so a quoted match is exact.
    if (filter.tag) q = q.where(this.contains(sql.ref('tags'), bind('tag', JSON.stringify(filter.tag))));
    if (filter.q) q = q.where(this.searching(searchNeedleOf(filter.q), bind));
    return q;
  }

  /** The values `matching` binds, by the names it gives them (the names also tell the statement's shape). */
  private matchingValues(scope: MonitorScope, filter: MonitorFilter, values: Record<string, unknown>): void {
    values.org = scope.organizationId;
    scope.environments?.forEach((e, i) => (values[`env${i}`] = e));
    if (filter.environment) values.environment = filter.environment;
    if (filter.status) values.status = filter.status;
    if (filter.type) values.type = filter.type;
    if (filter.maintenance) {
      filter.maintenance.monitorIds.forEach((id, i) => (values[`mid${i}`] = id));
      filter.maintenance.tags.forEach((tag, i) => (values[`mtag${i}`] = JSON.stringify(tag)));
    }
    if (filter.tag) values.tag = JSON.stringify(filter.tag);
    if (filter.q) {
      const needle = searchNeedleOf(filter.q);
      if (this.dialect === 'postgres') values.like = likeContains(needle);
      else {
        values.needle = needle;
        const phrase = ftsPhraseOf(needle);
        if (phrase !== null) values.phrase = phrase;
      }
    }
  }

  /**
   * `search_text` contains `needle` (both lowered the same way), through an index (issue 36 item 8). SQLite: the
   * FTS5 trigram table finds candidates for needles of three characters or more, the exact test confirms them;
   * PostgreSQL: LIKE, which the pg_trgm GIN index serves when the extension was available, a scan otherwise.
   */
  private searching(needle: string, bind: Bind): RawBuilder<SqlBool> {
    if (this.dialect === 'postgres') return sql<SqlBool>`search_text like ${bind('like', likeContains(needle))}`;
    const exact = this.contains(sql.ref('search_text'), bind('needle', needle));
    const phrase = ftsPhraseOf(needle);
    if (phrase === null) return exact;
    return sql<SqlBool>`(rowid in (select rowid from monitor_search where monitor_search match ${bind('phrase', phrase)}) and ${exact})`;
  }

  /** The sort's key expressions, in order, each with its direction (the id, ascending, breaks ties). */
  private sortKeys(sort: MonitorSort): Array<{ expr: RawBuilder<unknown>; desc: boolean }> {
    const name = { expr: sql.ref('sort_name'), desc: false };
    switch (sort) {
      case 'id':
        return [];
      case 'name':
        return [name];
      case 'type':
        return [{ expr: sql.ref('type'), desc: false }, name];
      case 'status': {
        const ranks = Object.entries(STATUS_RANK).map(
          ([status, rank]) => sql`when ${sql.lit(status)} then ${sql.lit(rank)}`,
        );
        return [{ expr: sql`(case status ${sql.join(ranks, sql` `)} else 9 end)`, desc: false }, name];
      }
      case 'last_checked':
        return [{ expr: sql`coalesce(last_checked_at, 0)`, desc: true }];
    }
  }

  /**
   * A page in the sort's order after `after` (keyset: rows whose keys come later, the id breaking ties), fetching
   * one extra row to know whether another page exists. With `queries` the statement is built and compiled once per
   * shape there (which filters, how many environments, the sort, whether after a cursor): Kysely building it cost
   * more than SQLite running most pages (issue 36 item 8).
   */
  async list(
    scope: MonitorScope,
    filter: MonitorFilter,
    after: ListPosition | undefined,
    limit: number,
    sort: MonitorSort = 'id',
    queries?: PrecompiledQueries,
  ): Promise<Monitor[]> {
    const values: Record<string, unknown> = {};
    this.matchingValues(scope, filter, values);
    after?.keys.forEach((key, i) => (values[`after${i}`] = key));
    if (after) values.afterId = after.id;
    values.limit = limit + 1;
    const names = Object.keys(values);
    // A maintenance filter naming many monitors is built each time (its shapes would be as many as its lengths).
    const rows =
      queries === undefined || names.length > MAX_PRECOMPILED_VALUES
        ? await this.page(scope, filter, after, limit, sort, direct).execute()
        : await queries.run<MonitorRow>(
            this.database.tables<unknown>(),
            `monitors.list:${this.dialect}:${sort}:${filter.maintenance?.match ?? ''}:${names.join(',')}`,
            () => this.page(scope, filter, after, limit, sort, placeholder),
            values,
          );
    return rows.map(toMonitor);
  }

  /** The page's statement (`list`), its values placed by `bind`. */
  private page(
    scope: MonitorScope,
    filter: MonitorFilter,
    after: ListPosition | undefined,
    limit: number,
    sort: MonitorSort,
    bind: Bind,
  ) {
    const keys = this.sortKeys(sort);
    let q = this.matching(scope, filter, bind).selectAll();
    if (after) {
      const later = (i: number): RawBuilder<SqlBool> => {
        const key = keys[i];
        if (!key) return sql<SqlBool>`id > ${bind('afterId', after.id)}`;
        const value = bind(`after${i}`, after.keys[i]);
        const beyond = key.desc ? sql<SqlBool>`${key.expr} < ${value}` : sql<SqlBool>`${key.expr} > ${value}`;
        return sql<SqlBool>`(${beyond} or (${key.expr} = ${value} and ${later(i + 1)}))`;
      };
      q = q.where(later(0));
    }
    for (const key of keys) q = q.orderBy(key.desc ? sql`${key.expr} desc` : sql`${key.expr} asc`);
    return q.orderBy('id').limit(sql<number>`${bind('limit', limit + 1)}`);
  }

  /** How many monitors match (the list's total, asked for with its first page). */
  async countMatching(scope: MonitorScope, filter: MonitorFilter): Promise<number> {
    const row = await this.matching(scope, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * How many monitors match, per status as shown (issue 36: the overview's counts), in one grouped query: a monitor
   * an active window covers (`covered`, by id or tag) and not paused counts as `maintenance`, as the list filter reads
   * it. Served by `monitor_org_status_idx` (organization, status, id) without reading rows, unless a window covers
   * tags (the tags column is then read) or the filter has a tag or text. A paused monitor's stored status is always
   * `paused` (pausing sets it, checks leave it), so `status <> 'paused'` stands for "not paused" here.
   */
  async countByStatus(
    scope: MonitorScope,
    filter: Omit<MonitorFilter, 'status' | 'maintenance'>,
    covered: { monitorIds: readonly string[]; tags: readonly string[] },
  ): Promise<Map<string, number>> {
    const coverage = [
      ...(covered.monitorIds.length > 0 ? [sql<SqlBool>`id in (${sql.join([...covered.monitorIds])})`] : []),
      ...covered.tags.map((tag) => this.contains(sql.ref('tags'), JSON.stringify(tag))),
    ];
    const shown =
      coverage.length === 0
        ? sql<string>`status`
        : sql<string>`case when status <> 'paused' and (${sql.join(coverage, sql` or `)}) then 'maintenance' else status end`;
    const rows = await this.matching(scope, filter)
      .select((eb) => [shown.as('shown'), eb.fn.countAll<number>().as('n')])
      .groupBy(sql`1`)
      .execute();
    return new Map(rows.map((r) => [r.shown, Number(r.n)]));
  }

  /** The ids of the monitors (within the scope) that match the filter: what an aggregate over them reads. */
  async idsMatching(scope: MonitorScope, filter: MonitorFilter): Promise<string[]> {
    const rows = await this.matching(scope, filter).select('id').execute();
    return rows.map((r) => r.id);
  }

  /** Which of `ids` are monitors within the scope (one statement, whatever the count). */
  async visibleIds(scope: MonitorScope, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.matching(scope, {})
      .select('id')
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((r) => r.id));
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
  }

  /** Only the config (a parent's deletion takes it out of its children's `depends_on`). */
  async setConfig(id: string, config: Monitor['config'], at: number): Promise<void> {
    await this.db
      .updateTable('monitor')
      .set({ config: toJson(config), updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async setLastChecked(ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('monitor')
      .set({ last_checked_at: at })
      .where('id', 'in', [...ids])
      .execute();
  }
}
