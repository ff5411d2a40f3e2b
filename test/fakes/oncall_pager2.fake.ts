import { randomUUID } from 'node:crypto';
import { headerOf, isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/**
 * Opsgenie Alert API fake (start one per region): `POST /v2/alerts`, `POST /v2/alerts/{alias}/close|acknowledge?identifierType=alias`
 * with `Authorization: GenieKey <key>`; 202 `{result, took, requestId}`.
 */
const FAILURES = {
  rate_limited: {
    status: 429,
    headers: { 'retry-after': '10', 'x-ratelimit-state': 'THROTTLED' },
    body: { message: 'Too many requests', took: 0.001, requestId: 'rl' },
  },
  forbidden: {
    status: 403,
    body: { message: 'You are not authorized for this operation', code: 40301, took: 0.001, requestId: 'fb' },
  },
  payment_required: {
    status: 402,
    body: { message: 'Your plan does not allow using this API', took: 0.001, requestId: 'pr' },
  },
  unprocessable: {
    status: 422,
    body: {
      message: 'Request body is not processable. Please check the errors.',
      errors: { message: 'Message can not be empty.' },
      took: 0.001,
      requestId: 'up',
    },
  },
  server_error: { status: 503, body: { message: 'Service unavailable', took: 0.001, requestId: 'se' } },
} satisfies Record<string, FakeResponse>;
export type OncallPager2Failure = keyof typeof FAILURES;

export interface OncallPager2Fake extends FakeServer<OncallPager2Failure> {
  apiKey: string;
  /** Alerts by alias. */
  alerts: Map<string, { status: 'open' | 'acked' | 'closed'; message: string; priority: string }>;
}

const accepted = (): FakeResponse => ({
  status: 202,
  body: { result: 'Request will be processed', took: 0.012, requestId: randomUUID() },
});

export async function startOncallPager2Fake(options: { apiKey?: string } = {}): Promise<OncallPager2Fake> {
  const apiKey = options.apiKey ?? 'f4ke0000-1111-2222-3333-opsgeniekey1';
  const alerts: OncallPager2Fake['alerts'] = new Map();
  const server = await startFakeHttp(FAILURES, (req) => {
    if (headerOf(req, 'authorization') !== `GenieKey ${apiKey}`) {
      return {
        status: 401,
        body: {
          message: 'Key format is not valid! apiKey is invalid or integration is disabled',
          took: 0.001,
          requestId: randomUUID(),
        },
      };
    }
    if (req.method !== 'POST')
      return { status: 404, body: { message: 'Could not find handler', took: 0, requestId: randomUUID() } };
    const body = isObject(req.json) ? req.json : null;
    if (req.rawBody !== '' && body === null)
      return { status: 400, body: { message: 'Could not parse request body', took: 0, requestId: randomUUID() } };
    if (req.path === '/v2/alerts') {
      const message = body?.message;
      if (typeof message !== 'string' || message === '') return FAILURES.unprocessable;
      if (message.length > 130)
        return {
          status: 422,
          body: {
            message: 'Request body is not processable. Please check the errors.',
            errors: { message: 'Message can not be longer than 130 characters.' },
            took: 0,
            requestId: randomUUID(),
          },
        };
      const alias = typeof body?.alias === 'string' ? body.alias : randomUUID();
      const current = alerts.get(alias);
      if (!current || current.status === 'closed')
        alerts.set(alias, {
          status: 'open',
          message,
          priority: typeof body?.priority === 'string' ? body.priority : 'P3',
        });
      return accepted();
    }
    const m = /^\/v2\/alerts\/([^/]+)\/(close|acknowledge)$/.exec(req.path);
    if (m) {
      if (req.query.identifierType !== 'alias')
        return {
          status: 422,
          body: { message: 'identifierType must be alias in this fake', took: 0, requestId: randomUUID() },
        };
      const alert = alerts.get(decodeURIComponent(m[1]));
      if (alert) alert.status = m[2] === 'close' ? 'closed' : 'acked';
      return accepted(); // async: accepted even when no open alert has the alias
    }
    return { status: 404, body: { message: 'Could not find handler', took: 0, requestId: randomUUID() } };
  });
  return Object.assign(server, { apiKey, alerts });
}
