import { sql, type Kysely } from 'kysely';
import type { Database, PrecompiledQueries } from '../../platform/db/index.ts';
import { fromJson, runOneRow, toJson } from '../../platform/db/index.ts';
import type { TimelineEntry, TimelineKind } from './availability.accounting.ts';
import type { ReportMonitorRow, ReportsTables } from './reports.tables.ts';

/** A monitor as reports see it (deleted ones included, with `deletedAt`). */
export interface ReportMonitor {
  id: string;
  organizationId: string;
  name: string;
  type: string;
  target: string;
  environment: string;
  tags: string[];
  createdAt: number;
  deletedAt: number | null;
}

function toMonitor(r: ReportMonitorRow): ReportMonitor {
  return {
    id: r.monitor_id,
    organizationId: r.organization_id,
    name: r.name,
    type: r.type,
    target: r.target,
    environment: r.environment,
    tags: fromJson<string[]>(r.tags),
    createdAt: Number(r.created_at),
    deletedAt: r.deleted_at === null ? null : Number(r.deleted_at),
  };
}

const CHUNK = 500;

const REPORT_MONITOR_COLUMNS = [
  'monitor_id',
  'organization_id',
  'name',
  'type',
  'target',
  'environment',
  'tags',
  'created_at',
  'deleted_at',
] as const satisfies ReadonlyArray<keyof ReportMonitorRow>;

/** The monitors reports cover and their timelines (lifecycle and verdicts), written as they happen. */
export class MonitorTimelineRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<ReportsTables>();
  }

  /** With `queries`, the upsert is compiled once (every save of a monitor writes it: issue 36 item 8). */
  async saveMonitor(m: ReportMonitor, queries?: PrecompiledQueries): Promise<void> {
    const row: ReportMonitorRow = {
      monitor_id: m.id,
      organization_id: m.organizationId,
      name: m.name,
      type: m.type,
      target: m.target,
      environment: m.environment,
      tags: toJson(m.tags),
      created_at: m.createdAt,
      deleted_at: m.deletedAt,
    };
    const upsert = (r: ReportMonitorRow) =>
      this.db
        .insertInto('report_monitor')
        .values(r)
        .onConflict((oc) =>
          oc.column('monitor_id').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            target: eb.ref('excluded.target'),
            environment: eb.ref('excluded.environment'),
            tags: eb.ref('excluded.tags'),
            deleted_at: eb.ref('excluded.deleted_at'),
          })),
        );
    await runOneRow(
      queries,
      this.db as unknown as Kysely<unknown>,
      'reports.saveMonitor',
      REPORT_MONITOR_COLUMNS,
      row,
      upsert,
    );
  }

  async append(monitorId: string, kind: TimelineKind, at: number, since: number | null = null): Promise<void> {
    await this.db.insertInto('monitor_timeline').values({ monitor_id: monitorId, kind, at, since }).execute();
  }

  /** Monitors of the organization that existed at some time in [from, to). */
  async monitorsDuring(organizationId: string, from: number, to: number): Promise<ReportMonitor[]> {
    const rows = await this.db
      .selectFrom('report_monitor')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('created_at', '<', to)
      .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', from)]))
      .orderBy('monitor_id')
      .execute();
    return rows.map(toMonitor);
  }

  async monitorsByIds(organizationId: string, ids: readonly string[]): Promise<ReportMonitor[]> {
    const out: ReportMonitor[] = [];
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('report_monitor')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('monitor_id', 'in', unique.slice(i, i + CHUNK))
        .execute();
      out.push(...rows.map(toMonitor));
    }
    return out;
  }

  /** The monitors among `monitorIds` with at least one up verdict at or before `until`. */
  async everUp(monitorIds: readonly string[], until: number): Promise<Set<string>> {
    const out = new Set<string>();
    const unique = [...new Set(monitorIds)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('monitor_timeline')
        .select('monitor_id')
        .distinct()
        .where('monitor_id', 'in', unique.slice(i, i + CHUNK))
        .where('kind', '=', 'up')
        .where('at', '<=', until)
        .execute();
      for (const r of rows) out.add(r.monitor_id);
    }
    return out;
  }

  /**
   * The `since` (first failing check) of the down verdicts recorded at exactly these (monitor, at) pairs: an
   * incident of a monitor is opened by the verdict at its `opened_at`. Keyed `${monitorId}@${at}`.
   */
  async downSince(pairs: ReadonlyArray<{ monitorId: string; at: number }>): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < pairs.length; i += CHUNK) {
      const chunk = pairs.slice(i, i + CHUNK);
      const rows = await this.db
        .selectFrom('monitor_timeline')
        .select(['monitor_id', 'at', 'since'])
        .where('kind', '=', 'down')
        .where('monitor_id', 'in', [...new Set(chunk.map((p) => p.monitorId))])
        .where('at', 'in', [...new Set(chunk.map((p) => p.at))])
        .execute();
      for (const r of rows) if (r.since !== null) out.set(`${r.monitor_id}@${Number(r.at)}`, Number(r.since));
    }
    return out;
  }

  /**
   * Each monitor's timeline as far as [from, until] needs it, in recorded order: the entries in that range, after
   * the last lifecycle entry and the last verdict before `from` (which decide the state at `from`). A report thus
   * reads what happened in its window, not the monitor's whole history.
   */
  async timelines(monitorIds: readonly string[], from: number, until: number): Promise<Map<string, TimelineEntry[]>> {
    const out = new Map<string, TimelineEntry[]>(monitorIds.map((id) => [id, []]));
    const unique = [...new Set(monitorIds)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const ids = unique.slice(i, i + CHUNK);
      const before = await sql<TimelineRow>`
        select monitor_id, at, kind, since, seq from (
          select monitor_id, at, kind, since, seq, row_number() over (
            partition by monitor_id, case when kind in ('up', 'down') then 1 else 0 end
            order by at desc, seq desc
          ) as rn
          from monitor_timeline
          where monitor_id in (${sql.join(ids)}) and at < ${from}
        ) last_before
        where rn = 1`.execute(this.db);
      const within = await this.db
        .selectFrom('monitor_timeline')
        .select(['monitor_id', 'at', 'kind', 'since', 'seq'])
        .where('monitor_id', 'in', ids)
        .where('at', '>=', from)
        .where('at', '<=', until)
        .execute();
      const rows = [...before.rows, ...within].sort(
        (a, b) =>
          a.monitor_id.localeCompare(b.monitor_id) || Number(a.at) - Number(b.at) || Number(a.seq) - Number(b.seq),
      );
      for (const r of rows) {
        out.get(r.monitor_id)!.push({
          kind: r.kind as TimelineKind,
          at: Number(r.at),
          since: r.since === null ? null : Number(r.since),
        });
      }
    }
    return out;
  }
}

interface TimelineRow {
  monitor_id: string;
  at: number | string;
  kind: string;
  since: number | string | null;
  seq: number | string;
}
