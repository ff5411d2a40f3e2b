import type { Monitor } from '../../src/modules/monitors/index.ts';
import { newId } from '../../src/platform/ids.ts';

let seq = 0;

/** A complete http monitor row for store tests, created at `createdAt`; each call gets a new id, name and target. */
export function sampleMonitor(organizationId: string, createdAt: number, overrides: Partial<Monitor> = {}): Monitor {
  seq += 1;
  return {
    id: newId('mon', createdAt + seq),
    organizationId,
    name: `Monitor ${seq}`,
    type: 'http',
    target: `https://m${seq}.example.com/`,
    intervalSeconds: 60,
    regionCodes: ['local'],
    tags: [],
    environment: 'production',
    config: {
      timeout_ms: 10_000,
      failure_threshold: 2,
      success_threshold: 1,
      confirm_regions: null,
      alert_destination_ids: [],
      alert_latency_ms: null,
      reminder_interval_minutes: null,
      method: 'GET',
      headers: { 'x-unicode': 'ünï©ødé ✓' },
      body: null,
      follow_redirects: true,
      verify_tls: true,
      assertions: [{ type: 'status', equals: 200 }],
    },
    paused: false,
    status: 'pending',
    statusChangedAt: createdAt,
    lastCheckedAt: null,
    heartbeatToken: null,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}
