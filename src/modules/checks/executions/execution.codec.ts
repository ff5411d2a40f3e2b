import { encodeExecutionId } from './execution.ids.ts';
import type { ExecutionDetails, ExecutionRecord } from './execution.types.ts';
import type { ExecutionRow } from './executions.tables.ts';

type Assertion = Record<string, unknown>;

const intOrNull = (v: number | null | undefined): number | null =>
  v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v);

/**
 * Passing assertions whose `actual` is a column (status → http_status, response_time → duration_ms) are
 * stored as a shared "shape": the assertion definitions without passed/actual, deduplicated across all
 * executions. Returns that shape's JSON, or null when the assertions must be stored in full.
 */
export function shapeOf(record: ExecutionRecord, durationMs: number, httpStatus: number | null): string | null {
  if (record.status !== 'up' || record.error !== null || record.assertions.length === 0) return null;
  const defs: Assertion[] = [];
  for (const a of record.assertions) {
    if (a.passed !== true) return null;
    if (a.type === 'status' ? a.actual !== httpStatus : a.type === 'response_time' ? a.actual !== durationMs : true)
      return null;
    const { passed: _p, actual: _a, ...def } = a;
    defs.push(def);
  }
  return JSON.stringify(defs);
}

/** The stored row of a record, without its key and shape (the store fills those). */
export function toRow(
  record: ExecutionRecord,
  monitorKey: number,
  regionKey: number,
): { row: Omit<ExecutionRow, 'id' | 'shape_key'>; shape: string | null } {
  const durationMs = Math.max(0, Math.round(record.durationMs));
  const httpStatus = intOrNull(record.httpStatus);
  const t = record.timings;
  const total = intOrNull(t.total_ms);
  const details = record.details ?? null;
  // A shared shape carries no per-execution facts: an execution with details keeps its assertions in full.
  const shape = details === null ? shapeOf(record, durationMs, httpStatus) : null;
  let detail: string | null = null;
  if (shape === null && (record.assertions.length > 0 || record.error !== null || details !== null)) {
    detail = JSON.stringify({
      ...(record.assertions.length > 0 && { a: record.assertions }),
      ...(record.error !== null && { e: record.error }),
      ...(details !== null && { d: details }),
    });
  }
  return {
    row: {
      monitor_key: monitorKey,
      region_key: regionKey,
      started_at: Math.round(record.startedAt),
      down: record.status === 'down' ? 1 : 0,
      duration_ms: durationMs,
      dns_ms: intOrNull(t.dns_ms),
      connect_ms: intOrNull(t.connect_ms),
      tls_ms: intOrNull(t.tls_ms),
      ttfb_ms: intOrNull(t.ttfb_ms),
      download_ms: intOrNull(t.download_ms),
      total_ms: total === durationMs ? null : total,
      http_status: httpStatus,
      detail,
    },
    shape,
  };
}

/** A stored row back as a record (timings in whole milliseconds). */
export function fromRow(
  row: ExecutionRow,
  monitor: { monitor_id: string; organization_id: string },
  regionCode: string,
  shapeBody: string | undefined,
): ExecutionRecord {
  const id = Number(row.id);
  let assertions: Assertion[] = [];
  let error: ExecutionRecord['error'] = null;
  let details: ExecutionDetails | null = null;
  if (row.shape_key !== null && shapeBody !== undefined) {
    assertions = (JSON.parse(shapeBody) as Assertion[]).map((d) => ({
      ...d,
      passed: true,
      actual: d.type === 'status' ? row.http_status : row.duration_ms,
    }));
  } else if (row.detail !== null) {
    const detail = JSON.parse(row.detail) as {
      a?: Assertion[];
      e?: { code: string; message: string };
      d?: ExecutionDetails;
    };
    assertions = detail.a ?? [];
    error = detail.e ?? null;
    details = detail.d ?? null;
  }
  return {
    id: encodeExecutionId(id, Number(row.started_at)),
    organizationId: monitor.organization_id,
    monitorId: monitor.monitor_id,
    regionCode,
    startedAt: Number(row.started_at),
    status: row.down === 1 ? 'down' : 'up',
    durationMs: row.duration_ms,
    timings: {
      dns_ms: row.dns_ms,
      connect_ms: row.connect_ms,
      tls_ms: row.tls_ms,
      ttfb_ms: row.ttfb_ms,
      download_ms: row.download_ms,
      total_ms: row.total_ms ?? row.duration_ms,
    },
    httpStatus: row.http_status,
    assertions,
    error,
    details,
  };
}
