import { PrecompiledQueries, type Database } from '../../../platform/db/index.ts';
import {
  addLateToDayPrefixes,
  DAY_MS,
  RollupsRepository,
  foldBatch,
  LatencySketch,
  rollupId,
  seriesId,
  type RollupDayRow,
  type RollupDelta,
  type SeriesState,
} from '../rollups/index.ts';
import { toRow } from './execution.codec.ts';
import { encodeExecutionId } from './execution.ids.ts';
import type { ExecutionRecord } from './execution.types.ts';
import { ExecutionsRepository, type NewExecutionRow } from './executions.repository.ts';

/**
 * Stores executions and maintains their hourly rollups, inside the caller's transaction.
 *
 * Per batch: a few key lookups (cached), one multi-row insert of executions (which draws their keys), one read
 * and one upsert of the series states, and for the rollups one locked read (PostgreSQL: an upsert that creates the
 * missing rows and returns them all, locked) and one multi-row upsert — one rollup write per (monitor, region, hour)
 * per batch, not per execution.
 */
export class ExecutionsStore {
  // Surrogate keys never change once committed. Only keys found already present are cached: a key created
  // by this transaction is not, since the transaction may still roll back.
  private readonly monitorKeys = new Map<string, number>();
  private readonly regionKeys = new Map<string, number>();
  private readonly shapeKeys = new Map<string, number>();
  /** The batch's multi-row statements, compiled once per row count (they recur every batch). */
  private readonly queries = new PrecompiledQueries();
  /**
   * The sketch every rollup row of every batch is merged and encoded in, with its decoder and output buffer: each
   * row is done before the next without an await, so concurrent batches never interleave in it.
   */
  private readonly scratch = new LatencySketch();

  /**
   * Stores the executions and updates the rollups in `tx` (a Database bound to the caller's transaction;
   * a plain Database works too, the writes then run in a transaction of their own). Each record's `id` is
   * set to the stored execution's public id (derived from its compact key; see execution.ids.ts).
   */
  async recordBatch(tx: Database, executions: ExecutionRecord[]): Promise<void> {
    if (executions.length === 0) return;
    if (!tx.inTransaction) {
      await tx.transaction((inner) => this.recordBatch(inner, executions));
      return;
    }
    const repo = new ExecutionsRepository(tx, this.queries);

    const monitorKeys = await this.resolveMonitorKeys(repo, executions);
    const regionKeys = await this.resolveRegionKeys(repo, executions);

    const prepared = executions.map((e) => toRow(e, monitorKeys.get(e.monitorId)!, regionKeys.get(e.regionCode)!));
    const shapes = await this.resolveShapes(
      repo,
      prepared.flatMap((p) => (p.shape === null ? [] : [p.shape])),
    );

    const rows: NewExecutionRow[] = prepared.map((p) => ({
      ...p.row,
      shape_key: p.shape === null ? null : shapes.get(p.shape)!,
    }));
    const ids = await repo.insertExecutions(rows);
    rows.forEach((row, i) => {
      executions[i]!.id = encodeExecutionId(ids[i]!, row.started_at);
    });

    // Rollups and downtime state.
    const distinctMonitorKeys = [...new Set(rows.map((r) => r.monitor_key))];
    const states = new Map<string, SeriesState>();
    for (const s of await repo.seriesOf(distinctMonitorKeys)) {
      states.set(seriesId(s.monitor_key, s.region_key), {
        monitorKey: s.monitor_key,
        regionKey: s.region_key,
        lastStartedAt: Number(s.last_started_at),
        lastDown: s.last_down === 1,
        lastGapMs: s.last_gap_ms === null ? null : Number(s.last_gap_ms),
      });
    }
    const { deltas, changed } = foldBatch(
      rows.map((r, i) => ({
        monitorKey: r.monitor_key,
        regionKey: r.region_key,
        startedAt: r.started_at,
        down: r.down === 1,
        durationMs: r.duration_ms,
        ...(executions[i]!.intervalSeconds !== undefined && { intervalMs: executions[i]!.intervalSeconds! * 1000 }),
      })),
      states,
    );
    await repo.saveSeries(
      [...changed.values()].map((s) => ({
        monitor_key: s.monitorKey,
        region_key: s.regionKey,
        last_started_at: s.lastStartedAt,
        last_down: s.lastDown ? 1 : 0,
        last_gap_ms: s.lastGapMs,
      })),
    );

    const hourly = [...deltas.values()];
    await mergeInto(new RollupsRepository(tx, 'execution_rollup', this.queries), hourly, this.scratch);
    const daysBefore = await mergeInto(
      new RollupsRepository(tx, 'execution_rollup_day', this.queries),
      toDays(hourly),
      this.scratch,
    );
    // Results for a UTC day that was closed and given its prefix sums add to them too.
    await addLateToDayPrefixes(tx, daysBefore, hourly);
  }

  private async resolveMonitorKeys(
    repo: ExecutionsRepository,
    executions: ExecutionRecord[],
  ): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const missing = new Map<string, string>();
    for (const e of executions) {
      const k = this.monitorKeys.get(e.monitorId);
      if (k !== undefined) out.set(e.monitorId, k);
      else missing.set(e.monitorId, e.organizationId);
    }
    if (missing.size === 0) return out;
    const found = await repo.findMonitorKeys([...missing.keys()]);
    for (const [id, k] of found) {
      this.monitorKeys.set(id, k);
      out.set(id, k);
    }
    const toCreate = [...missing].filter(([id]) => !found.has(id));
    if (toCreate.length > 0) {
      await repo.insertMonitorKeys(toCreate.map(([monitor_id, organization_id]) => ({ monitor_id, organization_id })));
      for (const [id, k] of await repo.findMonitorKeys(toCreate.map(([id]) => id))) out.set(id, k);
    }
    return out;
  }

  private async resolveRegionKeys(
    repo: ExecutionsRepository,
    executions: ExecutionRecord[],
  ): Promise<Map<string, number>> {
    const codes = [...new Set(executions.map((e) => e.regionCode))];
    if (codes.every((c) => this.regionKeys.has(c))) return this.regionKeys;
    const before = await repo.allRegionKeys();
    for (const [code, k] of before) this.regionKeys.set(code, k);
    const toCreate = codes.filter((c) => !before.has(c));
    if (toCreate.length === 0) return this.regionKeys;
    await repo.insertRegionKeys(toCreate);
    return new Map([...this.regionKeys, ...(await repo.allRegionKeys())]);
  }

  private async resolveShapes(repo: ExecutionsRepository, bodies: string[]): Promise<Map<string, number>> {
    const wanted = [...new Set(bodies)];
    const out = new Map<string, number>();
    const missing: string[] = [];
    for (const b of wanted) {
      const k = this.shapeKeys.get(b);
      if (k !== undefined) out.set(b, k);
      else missing.push(b);
    }
    if (missing.length === 0) return out;
    const found = await repo.findShapes(missing);
    for (const [b, k] of found) {
      this.shapeKeys.set(b, k);
      out.set(b, k);
    }
    const toCreate = missing.filter((b) => !found.has(b));
    if (toCreate.length > 0) {
      await repo.insertShapes(toCreate);
      for (const [b, k] of await repo.findShapes(toCreate)) out.set(b, k);
    }
    return out;
  }
}

/** The hourly deltas summed per UTC day (hourStart then holds the day's start). */
function toDays(hourly: RollupDelta[]): RollupDelta[] {
  const days = new Map<string, RollupDelta>();
  for (const d of hourly) {
    const dayStart = Math.floor(d.hourStart / DAY_MS) * DAY_MS;
    const id = rollupId(d.monitorKey, dayStart, d.regionKey);
    let acc = days.get(id);
    if (!acc) {
      acc = {
        monitorKey: d.monitorKey,
        hourStart: dayStart,
        regionKey: d.regionKey,
        checks: 0,
        failures: 0,
        downtimeMs: 0,
        sketch: new LatencySketch(),
      };
      days.set(id, acc);
    }
    acc.checks += d.checks;
    acc.failures += d.failures;
    acc.downtimeMs += d.downtimeMs;
    acc.sketch.merge(d.sketch);
  }
  return [...days.values()];
}

/**
 * Adds deltas to their rows: one locked read (creating missing rows on PostgreSQL), one multi-row upsert. Returns the
 * rows as they were (locked until the transaction ends).
 */
async function mergeInto(
  rollups: RollupsRepository,
  deltaList: RollupDelta[],
  merged: LatencySketch,
): Promise<RollupDayRow[]> {
  const deltas = new Map(deltaList.map((d) => [rollupId(d.monitorKey, d.hourStart, d.regionKey), d]));
  // Sorted so concurrent writers lock rows in the same order (no deadlock on PostgreSQL).
  const keys = deltaList
    .sort((a, b) => a.monitorKey - b.monitorKey || a.hourStart - b.hourStart || a.regionKey - b.regionKey)
    .map((d) => ({ monitor_key: d.monitorKey, hour_start: d.hourStart, region_key: d.regionKey }));
  const existing = await rollups.lockForUpdate(keys);
  const byId = new Map(existing.map((r) => [rollupId(r.monitor_key, Number(r.hour_start), r.region_key), r]));
  await rollups.write(
    keys.map((k) => {
      const id = rollupId(k.monitor_key, k.hour_start, k.region_key);
      const d = deltas.get(id)!;
      const old = byId.get(id);
      let sketch: Uint8Array | null = old?.sketch ?? null;
      if (d.sketch.count > 0) {
        merged.clear();
        merged.mergeEncoded(sketch);
        merged.merge(d.sketch);
        sketch = merged.encode();
      }
      return {
        ...k,
        checks: (old?.checks ?? 0) + d.checks,
        failures: (old?.failures ?? 0) + d.failures,
        downtime_ms: Number(old?.downtime_ms ?? 0) + d.downtimeMs,
        sketch,
      };
    }),
  );
  return existing;
}
