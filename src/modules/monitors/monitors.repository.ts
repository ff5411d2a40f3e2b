import { sql, type Compilable, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { fromJson, param, toJson, type PrecompiledQueries } from '../../platform/db/index.ts';
import type { MonitorRow, MonitorsTables, MonitorTagRow } from './monitors.tables.ts';
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

/**
 * How a list page with a tag or a text finds its rows (issue 36 item 8). `scan`: in the sort's order through the
 * organization's index, testing each row until the page is full (cheap when matches are dense). `candidates`: the
 * monitors the tag index (else the text index) gives are fetched by id and sorted (cheap when they are few). `auto`
 * (what the API uses): on SQLite the candidates when the index gives at most `fewCandidates(limit, index)`, a scan otherwise;
 * on PostgreSQL one statement, whose planner makes that choice itself from its statistics.
 */
export type ListPlan = 'auto' | 'scan' | 'candidates';

/**
 * The most candidates a page fetches by id rather than scanning in order. A scan reads about `page × rows / matches`
 * rows (all the filtered rows when none matches) and fetching reads the matches, each fetched row costing about 3–4
 * rows read in order (SQLite, 10,000 monitors: docs/BENCHMARKS.md, issue 36 item 8). 25 per row of the page bounds a
 * page's work (a scan's is unbounded when matches are rare) and takes a tag of 500 of 10,000 monitors by its rows.
 */
export function fewCandidates(limit: number, index: 'tag' | 'text'): number {
  // The text index's candidates cost more to find (FTS5 walks every trigram's rows of the needle, also to count them),
  // and a dense text is cheap to scan for: 4 per row of the page.
  return (index === 'tag' ? 25 : 4) * (limit + 1);
}

/**
 * How `matching` tests the filters: through the text index or only exactly, and kept to candidates (the monitors of
 * the filter's tag, through `monitor_tag`, or these ids from the text index) fetched by id.
 */
interface MatchingPlan {
  textIndex: boolean;
  candidates?: readonly string[];
}

const INDEXED: MatchingPlan = { textIndex: true };

/** The same tags, whatever their order (the rows of `monitor_tag` are a set). */
function sameTags(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((tag) => set.has(tag));
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
  private readonly queries: PrecompiledQueries | undefined;
  /** `queries`: where the writes and the reads by id are compiled once per shape (without: built on every call). */
  constructor(database: Database, queries?: PrecompiledQueries) {
    this.database = database;
    this.db = database.tables<MonitorsTables>();
    this.dialect = database.dialect;
    this.queries = queries;
  }

  /**
   * Runs the statement `build` makes with `values`: compiled once per `key` in the repository's queries (each value a
   * placeholder), or built with the values when it has none. `value(name)` is where `values[name]` goes.
   */
  private async statement<R>(
    key: string,
    values: Readonly<Record<string, unknown>>,
    build: (value: <T>(name: string) => T) => Compilable<R>,
  ): Promise<R[]> {
    if (!this.queries) {
      const compiled = build(<T>(name: string) => values[name] as T).compile();
      return (await this.database.tables<unknown>().executeQuery(compiled)).rows;
    }
    return this.queries.run<R>(
      this.database.tables<unknown>(),
      `monitors.${key}:${this.dialect}`,
      () => build(<T>(name: string) => param(name) as T),
      values,
    );
  }

  /** The monitor's rows of `monitor_tag` become its `tags` (inside the transaction that writes the monitor). */
  private async replaceTags(monitor: Pick<Monitor, 'id' | 'organizationId' | 'tags'>): Promise<void> {
    await this.statement('deleteTags', { id: monitor.id }, (v) =>
      this.db.deleteFrom('monitor_tag').where('monitor_id', '=', v<string>('id')),
    );
    await this.insertTags(monitor);
  }

  private async insertTags(monitor: Pick<Monitor, 'id' | 'organizationId' | 'tags'>): Promise<void> {
    const rows: MonitorTagRow[] = [...new Set(monitor.tags)].map((tag) => ({
      monitor_id: monitor.id,
      organization_id: monitor.organizationId,
      tag,
    }));
    if (rows.length === 0) return;
    if (!this.queries) {
      await this.db.insertInto('monitor_tag').values(rows).execute();
      return;
    }
    await this.queries.runRows<unknown, MonitorTagRow>(
      this.database.tables<unknown>(),
      `monitors.insertTags:${this.dialect}`,
      ['monitor_id', 'organization_id', 'tag'],
      rows,
      (placeholders) => this.db.insertInto('monitor_tag').values(placeholders),
    );
  }

  /** `haystack` contains `needle`, case-sensitively, on both dialects. */
  private contains(haystack: RawBuilder<unknown>, needle: string): RawBuilder<SqlBool> {
    return this.dialect === 'postgres'
      ? sql<SqlBool>`strpos(${haystack}, ${needle}) > 0`
      : sql<SqlBool>`instr(${haystack}, ${needle}) > 0`;
  }

  async insert(monitor: Monitor): Promise<void> {
    const row: Record<string, unknown> = { ...toRow(monitor) };
    await this.statement('insert', row, (v) =>
      this.db
        .insertInto('monitor')
        .values(Object.fromEntries(Object.keys(row).map((column) => [column, v(column)])) as unknown as MonitorRow),
    );
    await this.insertTags(monitor);
  }

  /**
   * Writes every field the user changes. `previous`: the tags the monitor had (read in the same transaction); its
   * `monitor_tag` rows are rewritten only when they differ (without it, always).
   */
  async update(monitor: Monitor, previous?: Pick<Monitor, 'tags'>): Promise<void> {
    const { created_at: _createdAt, ...row } = toRow(monitor);
    const { id: _id, organization_id: _org, ...set } = row;
    await this.statement('update', row, (v) =>
      this.db
        .updateTable('monitor')
        .set(Object.fromEntries(Object.keys(set).map((column) => [column, v(column)])))
        .where('id', '=', v<string>('id'))
        .where('organization_id', '=', v<string>('organization_id')),
    );
    if (!previous || !sameTags(previous.tags, monitor.tags)) await this.replaceTags(monitor);
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
    const rows = await this.statement(...this.byId('find', scope, id, false));
    return rows[0] ? toMonitor(rows[0]) : null;
  }

  /** The statement reading the scope's monitor `id` (`locked`: FOR UPDATE), as `statement`'s arguments. */
  private byId(name: string, scope: MonitorScope, id: string, locked: boolean) {
    const environments = scope.environments ?? null;
    const values: Record<string, string> = { organizationId: scope.organizationId, id };
    environments?.forEach((environment, i) => (values[`environment${i}`] = environment));
    return [
      `${name}:${environments?.length ?? 'all'}`,
      values,
      (v: <T>(name: string) => T) => {
        let q = this.db
          .selectFrom('monitor')
          .selectAll()
          .where('organization_id', '=', v<string>('organizationId'))
          .where('id', '=', v<string>('id'));
        if (environments)
          q = q.where(
            'environment',
            'in',
            environments.map((_, i) => v<string>(`environment${i}`)),
          );
        return locked ? q.forUpdate() : q;
      },
    ] as const;
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
      const rows = await this.statement(...this.byId('findForUpdate', scope, id, true));
      return rows[0] ? toMonitor(rows[0]) : null;
    }
    await this.statement('lock', { organizationId: scope.organizationId, id }, (v) =>
      this.db
        .updateTable('monitor')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('organization_id', '=', v<string>('organizationId'))
        .where('id', '=', v<string>('id')),
    );
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
  private matching(scope: MonitorScope, filter: MonitorFilter, bind: Bind = direct, plan: MatchingPlan = INDEXED) {
    const { candidates } = plan;
    // Kept to candidates, SQLite must look them up by id: `+` keeps it from reading the organization's indexes instead
    // (without statistics it takes an equality on them for a few rows, then tests every row against the candidates).
    const organization =
      candidates && this.dialect === 'sqlite'
        ? sql<string>`+${sql.ref('organization_id')}`
        : sql.ref('organization_id');
    let q = this.db.selectFrom('monitor').where(organization, '=', bind('org', scope.organizationId));
    if (candidates)
      q = q.where(
        this.dialect === 'postgres'
          ? sql<SqlBool>`id = any(${bind('candidates', candidates)})`
          : sql<SqlBool>`id in (select value from json_each(${bind('candidates', JSON.stringify(candidates))}))`,
      );
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
    // PostgreSQL: through `monitor_tag`, which its planner joins by the tag's index or probes by its primary key per
    // row, by its statistics. SQLite (a scan in order, or candidates): the row is read anyway, and testing its column
    // costs less than a lookup in `monitor_tag` per row (measured); the tag index gives the candidates
    // (`candidatesOf`). Tags are a JSON array of strings without quotes or backslashes, so a quoted match is exact.
    if (filter.tag)
      q = q.where(
        this.dialect === 'postgres'
          ? sql<SqlBool>`exists (select 1 from monitor_tag where monitor_tag.monitor_id = monitor.id and monitor_tag.tag = ${bind('tag', filter.tag)})`
          : this.contains(sql.ref('tags'), bind('tag', JSON.stringify(filter.tag))),
      );
    if (filter.q) q = q.where(this.searching(searchNeedleOf(filter.q), bind, plan.textIndex));
    return q;
  }

  /** The values `matching` binds, by the names it gives them (the names also tell the statement's shape). */
  private matchingValues(
    scope: MonitorScope,
    filter: MonitorFilter,
    values: Record<string, unknown>,
    plan: MatchingPlan,
  ): void {
    values.org = scope.organizationId;
    if (plan.candidates)
      values.candidates = this.dialect === 'postgres' ? plan.candidates : JSON.stringify(plan.candidates);
    scope.environments?.forEach((e, i) => (values[`env${i}`] = e));
    if (filter.environment) values.environment = filter.environment;
    if (filter.status) values.status = filter.status;
    if (filter.type) values.type = filter.type;
    if (filter.maintenance) {
      filter.maintenance.monitorIds.forEach((id, i) => (values[`mid${i}`] = id));
      filter.maintenance.tags.forEach((tag, i) => (values[`mtag${i}`] = JSON.stringify(tag)));
    }
    if (filter.tag) values.tag = this.dialect === 'postgres' ? filter.tag : JSON.stringify(filter.tag);
    if (filter.q) {
      const needle = searchNeedleOf(filter.q);
      if (this.dialect === 'postgres') values.like = likeContains(needle);
      else {
        values.needle = needle;
        const phrase = ftsPhraseOf(needle);
        if (phrase !== null && plan.textIndex) values.phrase = phrase;
      }
    }
  }

  /**
   * `search_text` contains `needle` (both lowered the same way), through an index (issue 36 item 8). SQLite: the
   * FTS5 trigram table finds candidates for needles of three characters or more, the exact test confirms them;
   * PostgreSQL: LIKE, which the pg_trgm GIN index serves when the extension was available, a scan otherwise.
   * Without `textIndex` (a scan in order, or rows already kept to candidates) SQLite tests only the exact condition.
   */
  private searching(needle: string, bind: Bind, textIndex: boolean): RawBuilder<SqlBool> {
    if (this.dialect === 'postgres') return sql<SqlBool>`search_text like ${bind('like', likeContains(needle))}`;
    const exact = this.contains(sql.ref('search_text'), bind('needle', needle));
    const phrase = ftsPhraseOf(needle);
    if (phrase === null || !textIndex) return exact;
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
    how: ListPlan = 'auto',
  ): Promise<Monitor[]> {
    const candidates =
      how === 'scan' || (how === 'auto' && this.dialect === 'postgres')
        ? null
        : await this.candidatesOf(scope, filter, (index) =>
            how === 'candidates' ? Number.MAX_SAFE_INTEGER : fewCandidates(limit, index),
          );
    // No candidate at all (a tag no monitor has, a text nothing contains): no page to read.
    if (candidates === 'none') return [];
    // A scan in order tests the text exactly: the text index's lookup costs more than the rows a dense match reads.
    const plan: MatchingPlan = candidates
      ? { textIndex: false, candidates }
      : { textIndex: this.dialect === 'postgres' };
    const values: Record<string, unknown> = {};
    this.matchingValues(scope, filter, values, plan);
    after?.keys.forEach((key, i) => (values[`after${i}`] = key));
    if (after) values.afterId = after.id;
    values.limit = limit + 1;
    const names = Object.keys(values);
    // A maintenance filter naming many monitors is built each time (its shapes would be as many as its lengths).
    const rows =
      queries === undefined || names.length > MAX_PRECOMPILED_VALUES
        ? await this.page(scope, filter, after, limit, sort, direct, plan).execute()
        : await queries.run<MonitorRow>(
            this.database.tables<unknown>(),
            `monitors.list:${this.dialect}:${sort}:${filter.maintenance?.match ?? ''}:${names.join(',')}`,
            () => this.page(scope, filter, after, limit, sort, placeholder, plan),
            values,
          );
    return rows.map(toMonitor);
  }

  /**
   * The ids of the scope's organization's monitors the tag index, or else the text index, gives for the filter when
   * there are at most `most(index)` (`none` when there is none); null when both give more, or neither applies.
   */
  private async candidatesOf(
    scope: MonitorScope,
    filter: MonitorFilter,
    most: (index: 'tag' | 'text') => number,
  ): Promise<'none' | string[] | null> {
    const db = this.database.tables<unknown>();
    const org = scope.organizationId;
    if (filter.tag) {
      const few = most('tag');
      const { rows } = await sql<{ id: string }>`select monitor_id as id from monitor_tag
        where organization_id = ${org} and tag = ${filter.tag} limit ${few + 1}`.execute(db);
      if (rows.length === 0) return 'none';
      if (rows.length <= few) return rows.map((r) => r.id);
    }
    if (!filter.q) return null;
    const needle = searchNeedleOf(filter.q);
    const phrase = ftsPhraseOf(needle);
    // One or two characters: neither index holds them (SQLite's trigrams, PostgreSQL's pg_trgm).
    if (phrase === null) return null;
    const few = most('text');
    const { rows } =
      this.dialect === 'postgres'
        ? await sql<{ id: string }>`select id from monitor
            where organization_id = ${org} and search_text like ${likeContains(needle)} limit ${few + 1}`.execute(db)
        : await sql<{ id: string }>`select monitor.id from monitor_search cross join monitor
            on monitor.rowid = monitor_search.rowid
            where monitor_search match ${phrase} and monitor.organization_id = ${org} limit ${few + 1}`.execute(db);
    if (rows.length === 0) return 'none';
    return rows.length <= few ? rows.map((r) => r.id) : null;
  }

  /** The page's statement (`list`), its values placed by `bind`. */
  private page(
    scope: MonitorScope,
    filter: MonitorFilter,
    after: ListPosition | undefined,
    limit: number,
    sort: MonitorSort,
    bind: Bind,
    plan: MatchingPlan,
  ) {
    const keys = this.sortKeys(sort);
    let q = this.matching(scope, filter, bind, plan).selectAll();
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
