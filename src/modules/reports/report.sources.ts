import type { ServiceContext } from '../auth/index.ts';
import type { Incident } from '../incidents/index.ts';
import type { IntelligenceEvent, IntelligenceEventFilter } from '../intelligence/index.ts';

/** One rollup row (checks module): a monitor's checks in one hour or one UTC day, in one region. */
export interface ReportRollupRow {
  monitor_key: number;
  hour_start: number;
  region_key: number;
  checks: number;
  failures: number;
  downtime_ms: number;
  sketch: Uint8Array | null;
}

/** What reports read from the checks module's rollups (RollupsService and ExecutionsService fit). */
export interface ReportRollups {
  monitorKeys(monitorIds: readonly string[]): Promise<Map<string, number>>;
  rollupRows(
    monitorKeys: readonly number[],
    from: number,
    to: number,
    resolution: 'hour' | 'day',
  ): Promise<ReportRollupRow[]>;
}

interface PageOf<T> {
  data: T[];
  next_cursor: string | null;
}

/** Incidents visible to the actor (IncidentsService fits). */
export interface ReportIncidents {
  list(
    ctx: ServiceContext,
    filter: { source?: 'monitor'; from?: number; to?: number },
    page: { limit: number; cursor?: string },
  ): Promise<PageOf<Incident>>;
}

/** Intelligence events visible to the actor (IntelligenceService fits). */
export interface ReportAnomalies {
  list(
    ctx: ServiceContext,
    filter: IntelligenceEventFilter,
    page: { limit: number; cursor?: string },
  ): Promise<PageOf<IntelligenceEvent>>;
}

/** Reads every page of a cursor-paged list. */
export async function readAll<T>(page: (cursor: string | undefined) => Promise<PageOf<T>>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const p = await page(cursor);
    out.push(...p.data);
    if (!p.next_cursor) return out;
    cursor = p.next_cursor;
  }
}
