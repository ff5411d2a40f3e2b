import type { Database } from '../../../platform/db/index.ts';
import type { IntelligenceCheck } from '../../intelligence/index.ts';
import type { Monitor } from '../../monitors/index.ts';
import type { BatchAnalytics } from './batch-analytics.queue.ts';
import type { CheckResult } from './check.types.ts';

/** Where a committed batch's checks go, in a transaction of their own (IntelligenceService implements it). */
export interface IntelligenceFeed {
  applyChecks(tx: Database, checks: readonly IntelligenceCheck[]): Promise<void>;
}

/** Intelligence ingestion as the analytics of committed batches (observations, baselines, intelligence events). */
export function intelligenceAnalytics(feed: IntelligenceFeed): BatchAnalytics {
  return {
    name: 'intelligence',
    afterBatch: (tx, batch) => feed.applyChecks(tx, intelligenceChecksOf(batch.results, batch.monitors)),
  };
}

/**
 * The batch's results as intelligence reads them, in time order. Heartbeat monitors are left out: their
 * "latency" is the time since the last ping, not a response time.
 */
export function intelligenceChecksOf(
  ordered: readonly CheckResult[],
  monitors: ReadonlyMap<string, Monitor>,
): IntelligenceCheck[] {
  const out: IntelligenceCheck[] = [];
  for (const r of ordered) {
    const m = monitors.get(r.monitorId);
    if (!m || m.type === 'heartbeat') continue;
    const o = r.observation;
    out.push({
      organizationId: m.organizationId,
      monitorId: m.id,
      monitorName: m.name,
      target: m.target,
      type: m.type,
      regionCode: r.regionCode,
      at: o.started_at,
      up: o.status === 'up',
      latencyMs: o.duration_ms,
      alertLatencyMs: m.config.alert_latency_ms ?? null,
      openIncidents: m.config.intelligence_incidents === true,
      details: o.details,
    });
  }
  return out;
}
