import type { Observation } from '../../src/modules/checks/index.ts';
import { bearer, type TestApp, type TestOrg } from '../support/app.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies in assertions

export const at = (iso: string) => Date.parse(iso);

export function observation(status: 'up' | 'down', startedAt: number, durationMs = 120): Observation {
  return {
    status,
    started_at: startedAt,
    duration_ms: durationMs,
    timings: { dns_ms: null, connect_ms: 1, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms: durationMs },
    http_status: status === 'up' ? 200 : 503,
    assertions: [],
    error: null,
  };
}

/** An API client of one organization, plus the engine's write path for check results. */
export function clientOf(t: TestApp, org: TestOrg) {
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.tocsin.app.inject({
      method,
      url,
      headers: bearer(org.apiKey),
      ...(payload !== undefined && { payload: payload as Json }),
    });
    return {
      status: res.statusCode,
      body: (res.body.length > 0 && res.headers['content-type']?.toString().includes('json')
        ? res.json()
        : null) as Json,
      raw: res,
    };
  };
  return {
    call,
    async createMonitor(body: Json): Promise<string> {
      const res = await call('POST', '/api/v1/monitors', {
        target: 'https://shop.example.test/health',
        interval_seconds: 60,
        ...body,
      });
      if (res.status !== 201) throw new Error(`monitor not created: ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    /** One check result through CheckEngine.applyResults (executions, rollups, state machine, incidents). */
    async check(monitorId: string, status: 'up' | 'down', when: number, regionCode = 'local', durationMs = 120) {
      await t.tocsin.services.checks.engine.applyResults('test', [
        { monitorId, regionCode, dueAt: when, observation: observation(status, when, durationMs) },
      ]);
      // Its intelligence (anomalies) runs after the commit: done before the test reads on.
      await t.tocsin.services.checks.engine.analyticsSettled();
    },
  };
}
