import type { Actor } from '../../src/modules/auth/index.ts';
import type { ExecutionRecord } from '../../src/modules/checks/executions/index.ts';
import { notFound } from '../../src/platform/errors.ts';

export const ORG = 'org_01kaaaaaaaaaaaaaaaaaaaaaaa';
export const MON = 'mon_01kaaaaaaaaaaaaaaaaaaaaaaa';
export const MON2 = 'mon_01kbbbbbbbbbbbbbbbbbbbbbbb';

/** Actor of ORG; only the organization matters to the fake monitor lookup. */
export function actorOf(organizationId = ORG): Actor {
  return { organizationId } as unknown as Actor; // test stand-in: the fakes below read organizationId only
}

/** Monitors visible per organization, like MonitorsService.get. */
export function fakeMonitors(owner: Record<string, string> = { [MON]: ORG, [MON2]: ORG }) {
  return {
    async get(actor: Actor, id: string) {
      if (owner[id] !== actor.organizationId) throw notFound('Monitor');
      return { id, organizationId: owner[id] };
    },
    async visibleIds(actor: Actor, ids: readonly string[]) {
      return new Set(ids.filter((id) => owner[id] === actor.organizationId));
    },
  };
}

export function execution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const down = overrides.status === 'down';
  return {
    id: '',
    organizationId: ORG,
    monitorId: MON,
    regionCode: 'eu-west',
    startedAt: Date.parse('2026-03-01T10:00:00.000Z'),
    status: 'up',
    durationMs: 120,
    timings: {
      dns_ms: 3,
      connect_ms: 10,
      tls_ms: 25,
      ttfb_ms: 70,
      download_ms: 12,
      total_ms: overrides.durationMs ?? 120,
    },
    httpStatus: down ? 503 : 200,
    assertions: [{ type: 'status', equals: 200, passed: !down, actual: down ? 503 : 200 }],
    error: down ? { code: 'assertion_failed', message: 'status 503' } : null,
    ...overrides,
  };
}
