import { describe, expect, it } from 'vitest';
import { fromRow, toRow } from './execution.codec.ts';
import type { ExecutionRecord } from './execution.types.ts';

const record = (over: Partial<ExecutionRecord>): ExecutionRecord => ({
  id: 'exe_1',
  organizationId: 'org_1',
  monitorId: 'mon_1',
  regionCode: 'local',
  startedAt: Date.parse('2026-11-28T10:00:00Z'),
  status: 'up',
  durationMs: 40,
  timings: { dns_ms: null, connect_ms: 3, tls_ms: null, ttfb_ms: 30, download_ms: null, total_ms: 40 },
  httpStatus: null,
  assertions: [{ type: 'response_time', less_than: 3000, passed: true, actual: 40 }],
  error: null,
  ...over,
});

function roundTrip(r: ExecutionRecord): ExecutionRecord {
  const { row, shape } = toRow(r, 1, 1);
  return fromRow(
    { ...row, id: 7, shape_key: shape === null ? null : 1 },
    { monitor_id: r.monitorId, organization_id: r.organizationId },
    r.regionCode,
    shape ?? undefined,
  );
}

describe('execution codec: details', () => {
  it('keeps a gRPC check’s details, also when its assertions alone would be a shared shape', () => {
    const details = { grpc_status: 'OK', method: 'shop.v1.Orders/Get' };
    const back = roundTrip(record({ details }));
    expect(back.details).toEqual(details);
    expect(back.assertions).toEqual([{ type: 'response_time', less_than: 3000, passed: true, actual: 40 }]);
  });

  it('stores nothing extra without details', () => {
    expect(toRow(record({ details: null }), 1, 1).row.detail).toBeNull();
    expect(roundTrip(record({})).details).toBeNull();
  });
});
