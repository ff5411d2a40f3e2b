import type { Actor } from '../../auth/index.ts';
import type { Database } from '../../../platform/db/index.ts';
import { decodeCursor } from '../../../platform/cursor.ts';
import { encodeCursor } from '../../../platform/cursor.ts';
import { notFound } from '../../../platform/errors.ts';
import { fromRow } from './execution.codec.ts';
import { decodeExecutionId, encodeExecutionId } from './execution.ids.ts';
import type { ExecutionRecord } from './execution.types.ts';
import { ExecutionsRepository, type ExecutionSample, type ExecutionTallyRow } from './executions.repository.ts';
import type { ExecutionRow } from './executions.tables.ts';

/** Visibility of a monitor to an actor (organization + environment scoping; throws not_found). */
export interface MonitorLookup {
  get(actor: Actor, id: string): Promise<{ id: string; organizationId: string }>;
}

/** A stored execution as the live feed tells it. */
export interface RecordedExecution {
  /** Its storage key: the feed's position. */
  key: number;
  id: string;
  organizationId: string;
  monitorId: string;
  down: boolean;
  durationMs: number;
  startedAt: number;
}

export interface ExecutionsServiceDeps {
  database: Database;
  monitors: MonitorLookup;
}

export interface ExecutionListQuery {
  from?: number;
  to?: number;
  regionCode?: string;
  status?: 'up' | 'down';
  limit: number;
  cursor?: string;
}

export interface ExecutionPage {
  data: ExecutionRecord[];
  next_cursor: string | null;
}

type ListCursor = [number, number];
const isListCursor = (v: unknown): v is ListCursor =>
  Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && Number.isSafeInteger(n));

/** Reads executions; also the raw source of minute-resolution history and the key lookups of rollups. */
export class ExecutionsService {
  private readonly deps: ExecutionsServiceDeps;
  private readonly repo: ExecutionsRepository;
  private regionCodesByKey = new Map<number, string>();
  constructor(deps: ExecutionsServiceDeps) {
    this.deps = deps;
    this.repo = new ExecutionsRepository(deps.database);
  }

  async list(actor: Actor, monitorId: string, query: ExecutionListQuery): Promise<ExecutionPage> {
    const monitor = await this.deps.monitors.get(actor, monitorId);
    const after = decodeCursor(query.cursor, isListCursor);
    const key = await this.monitorKey(monitor.id);
    if (key === undefined) return { data: [], next_cursor: null };
    let regionKey: number | undefined;
    if (query.regionCode !== undefined) {
      regionKey = await this.regionKey(query.regionCode);
      if (regionKey === undefined) return { data: [], next_cursor: null };
    }
    const rows = await this.repo.list(
      key,
      {
        ...(query.from !== undefined && { from: query.from }),
        ...(query.to !== undefined && { to: query.to }),
        ...(regionKey !== undefined && { regionKey }),
        ...(query.status !== undefined && { down: query.status === 'down' }),
      },
      after && { startedAt: after[0], id: after[1] },
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const data = await this.present(page, { monitor_id: monitor.id, organization_id: monitor.organizationId });
    return {
      data,
      next_cursor: rows.length > query.limit && last ? encodeCursor([Number(last.started_at), Number(last.id)]) : null,
    };
  }

  async get(actor: Actor, id: string): Promise<ExecutionRecord> {
    const decoded = decodeExecutionId(id);
    if (!decoded) throw notFound('Execution');
    const row = await this.repo.findById(decoded.key);
    if (!row || Number(row.started_at) !== decoded.startedAt) throw notFound('Execution');
    const owner = await this.repo.monitorOfKey(row.monitor_key);
    if (!owner || owner.organization_id !== actor.organizationId) throw notFound('Execution');
    try {
      await this.deps.monitors.get(actor, owner.monitor_id);
    } catch {
      throw notFound('Execution');
    }
    const [record] = await this.present([row], owner);
    return record!;
  }

  // ---- lookups used by rollups / history ---------------------------------------------------------------

  /** The newest stored execution's key (0 when none). */
  latestKey(): Promise<number> {
    return this.repo.latestKey();
  }

  /** Executions stored after `afterKey` (any organization), oldest first: the source of the live feed. */
  async recordedAfter(afterKey: number, limit: number): Promise<RecordedExecution[]> {
    const rows = await this.repo.recordedAfter(afterKey, limit);
    return rows.map((r) => ({
      key: Number(r.id),
      id: encodeExecutionId(Number(r.id), Number(r.started_at)),
      organizationId: r.organization_id,
      monitorId: r.monitor_id,
      down: Number(r.down) === 1,
      durationMs: Number(r.duration_ms),
      startedAt: Number(r.started_at),
    }));
  }

  async monitorKey(monitorId: string): Promise<number | undefined> {
    return (await this.repo.findMonitorKeys([monitorId])).get(monitorId);
  }

  async monitorKeys(monitorIds: readonly string[]): Promise<Map<string, number>> {
    return this.repo.findMonitorKeys(monitorIds);
  }

  async regionKey(code: string): Promise<number | undefined> {
    return (await this.repo.allRegionKeys()).get(code);
  }

  async samples(
    monitorKey: number,
    regionKey: number | undefined,
    from: number,
    to: number,
  ): Promise<ExecutionSample[]> {
    return this.repo.samples(monitorKey, regionKey, from, to);
  }

  /** Executions of monitors started in [from, to), counted by monitor, outcome and duration. */
  tally(monitorKeys: readonly number[], from: number, to: number): Promise<ExecutionTallyRow[]> {
    return this.repo.tally(monitorKeys, from, to);
  }

  private async regionCode(key: number): Promise<string> {
    let code = this.regionCodesByKey.get(key);
    if (code === undefined) {
      this.regionCodesByKey = new Map([...(await this.repo.allRegionKeys())].map(([c, k]) => [k, c]));
      code = this.regionCodesByKey.get(key) ?? 'unknown';
    }
    return code;
  }

  private async present(
    rows: ExecutionRow[],
    monitor: { monitor_id: string; organization_id: string },
  ): Promise<ExecutionRecord[]> {
    const shapeKeys = [...new Set(rows.flatMap((r) => (r.shape_key === null ? [] : [r.shape_key])))];
    const shapes = await this.repo.shapeBodies(shapeKeys);
    const out: ExecutionRecord[] = [];
    for (const row of rows) {
      out.push(
        fromRow(
          row,
          monitor,
          await this.regionCode(row.region_key),
          row.shape_key === null ? undefined : shapes.get(row.shape_key),
        ),
      );
    }
    return out;
  }
}
