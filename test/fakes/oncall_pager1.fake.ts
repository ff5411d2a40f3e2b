import { isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** PagerDuty Events API v2 fake: `POST /v2/enqueue` → 202 `{status, message, dedup_key}`; tracks alert state per dedup key. */
const invalid = (...errors: string[]): FakeResponse => ({
  status: 400,
  body: { status: 'invalid event', message: 'Event object is invalid', errors },
});

const FAILURES = {
  throttled: {
    status: 429,
    body: {
      status: 'throttle event',
      message: 'Requests for this service are arriving too quickly.  Please retry later.',
    },
  },
  invalid_event: invalid("'payload.summary' is missing or blank"),
  server_error: { status: 500, body: 'Internal Server Error' },
} satisfies Record<string, FakeResponse>;
export type OncallPager1Failure = keyof typeof FAILURES;

export interface OncallPager1Fake extends FakeServer<OncallPager1Failure> {
  integrationKey: string;
  /** Alert state per dedup key (triggered / acknowledged / resolved) and how many trigger events it got. */
  alerts: Map<string, { status: 'triggered' | 'acknowledged' | 'resolved'; triggers: number; summary: string }>;
}

export async function startOncallPager1Fake(options: { integrationKey?: string } = {}): Promise<OncallPager1Fake> {
  const integrationKey = options.integrationKey ?? 'abcdef0123456789abcdef0123456789';
  const alerts: OncallPager1Fake['alerts'] = new Map();
  let seq = 0;
  const server = await startFakeHttp(FAILURES, (req) => {
    if (req.method !== 'POST' || req.path !== '/v2/enqueue') return { status: 404, body: { status: 'not found' } };
    const e = req.json;
    if (!isObject(e))
      return {
        status: 400,
        body: { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid JSON'] },
      };
    if (typeof e.routing_key !== 'string' || e.routing_key.length !== 32)
      return invalid("Length of 'routing_key' is incorrect (should be 32 characters)");
    if (e.routing_key !== integrationKey) return invalid('Invalid routing key');
    const action = e.event_action;
    if (action !== 'trigger' && action !== 'acknowledge' && action !== 'resolve')
      return invalid("'event_action' is invalid (must be one of trigger, acknowledge, resolve)");
    let dedup = typeof e.dedup_key === 'string' ? e.dedup_key : '';
    if (dedup.length > 255) return invalid("'dedup_key' is too long");
    if (action === 'trigger') {
      const p = e.payload;
      if (!isObject(p) || typeof p.summary !== 'string' || p.summary === '') return FAILURES.invalid_event;
      if (p.summary.length > 1024) return invalid("'payload.summary' is too long");
      if (typeof p.source !== 'string' || p.source === '') return invalid("'payload.source' is missing or blank");
      if (!['critical', 'error', 'warning', 'info'].includes(String(p.severity)))
        return invalid("'payload.severity' is invalid");
      if (!dedup) dedup = `pd-generated-${++seq}`;
      const current = alerts.get(dedup);
      if (current && current.status !== 'resolved') current.triggers += 1;
      else alerts.set(dedup, { status: 'triggered', triggers: 1, summary: p.summary });
    } else {
      if (!dedup) return invalid("'dedup_key' is missing or blank");
      const current = alerts.get(dedup);
      // Follow-ups for unknown or resolved alerts are accepted and dropped, as PagerDuty does.
      if (current && current.status !== 'resolved') current.status = action === 'resolve' ? 'resolved' : 'acknowledged';
    }
    return { status: 202, body: { status: 'success', message: 'Event processed', dedup_key: dedup } };
  });
  return Object.assign(server, { integrationKey, alerts });
}
