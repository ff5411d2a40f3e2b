import { fromJson, type Database } from '../../platform/db/index.ts';
import type { MonitorsTables } from './monitors.tables.ts';
import type { MonitorStatus } from './monitor.types.ts';

/** A monitor at the other end of a dependency edge, with its current status. */
export interface RelatedMonitor {
  id: string;
  name: string;
  status: MonitorStatus;
  intervalSeconds: number;
  /** `config.success_threshold` (default 1): how many passing checks its recovery takes. */
  successThreshold: number;
  /** `config.failure_threshold` (default 2): how many failing checks confirm its outage. */
  failureThreshold: number;
}

interface RelatedRow {
  id: string;
  name: string;
  status: string;
  interval_seconds: number;
  config: string;
}

function toRelated(r: RelatedRow): RelatedMonitor {
  const config = fromJson<{ success_threshold?: number | null; failure_threshold?: number | null }>(r.config);
  return {
    id: r.id,
    name: r.name,
    status: r.status as MonitorStatus,
    intervalSeconds: Number(r.interval_seconds),
    successThreshold: config.success_threshold ?? 1,
    failureThreshold: config.failure_threshold ?? 2,
  };
}

const RELATED = [
  'm.id as id',
  'm.name as name',
  'm.status as status',
  'm.interval_seconds as interval_seconds',
  'm.config as config',
] as const;

/** The `monitor_dependency` rows (DECISIONS §17): who depends on whom, read both ways. */
export class MonitorDependenciesRepository {
  private readonly db;
  constructor(database: Database) {
    this.db = database.tables<MonitorsTables>();
  }

  /** Makes the monitor's parents exactly `parentIds` (inside the caller's transaction). */
  async replaceFor(organizationId: string, monitorId: string, parentIds: readonly string[]): Promise<void> {
    await this.db.deleteFrom('monitor_dependency').where('monitor_id', '=', monitorId).execute();
    if (parentIds.length === 0) return;
    await this.db
      .insertInto('monitor_dependency')
      .values(parentIds.map((p) => ({ monitor_id: monitorId, depends_on_id: p, organization_id: organizationId })))
      .execute();
  }

  /** Every edge of an organization (child → parent): the graph the cycle check walks. */
  async edgesOf(organizationId: string): Promise<Array<{ monitorId: string; dependsOnId: string }>> {
    const rows = await this.db
      .selectFrom('monitor_dependency')
      .select(['monitor_id', 'depends_on_id'])
      .where('organization_id', '=', organizationId)
      .execute();
    return rows.map((r) => ({ monitorId: r.monitor_id, dependsOnId: r.depends_on_id }));
  }

  /** The monitors that depend on `parentId`, with their statuses. */
  async childrenOf(parentId: string): Promise<RelatedMonitor[]> {
    const rows = await this.db
      .selectFrom('monitor_dependency as d')
      .innerJoin('monitor as m', 'm.id', 'd.monitor_id')
      .select(RELATED)
      .where('d.depends_on_id', '=', parentId)
      .orderBy('m.id')
      .execute();
    return rows.map(toRelated);
  }

  /** One monitor as an end of an edge (the incidents module's view of a held child). */
  async related(id: string): Promise<RelatedMonitor | null> {
    const row = await this.db.selectFrom('monitor as m').select(RELATED).where('m.id', '=', id).executeTakeFirst();
    return row ? toRelated(row) : null;
  }

  /** The parents of each of these monitors, with their statuses (monitors without parents are absent). */
  async parentsOf(monitorIds: readonly string[]): Promise<Map<string, RelatedMonitor[]>> {
    const out = new Map<string, RelatedMonitor[]>();
    if (monitorIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('monitor_dependency as d')
      .innerJoin('monitor as m', 'm.id', 'd.depends_on_id')
      .select(['d.monitor_id as child', ...RELATED])
      .where('d.monitor_id', 'in', [...monitorIds])
      .orderBy('d.monitor_id')
      .orderBy('m.id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.child) ?? [];
      list.push(toRelated(r));
      out.set(r.child, list);
    }
    return out;
  }
}
