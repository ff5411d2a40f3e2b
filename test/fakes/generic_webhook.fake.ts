import { verifyWebhook, type VerifyResult } from '../../src/modules/alerting/destinations/index.ts';
import { startFakeHttp, type FakeResponse, type FakeServer, type RecordedRequest } from './fake-http.ts';

/** A webhook receiver: accepts any POST with 200, verifies both signatures of every request with `secret`. */
const FAILURES = {
  gone: { status: 410, body: 'Gone' },
  rate_limited: { status: 429, headers: { 'retry-after': '120' }, body: 'slow down' },
  server_error: { status: 500, body: 'boom' },
  bad_gateway: { status: 502, body: 'bad gateway' },
  request_timeout: { status: 408, body: 'timeout' },
  bad_request: { status: 400, body: 'bad request' },
  unauthorized: { status: 401, body: 'unauthorized' },
  redirect: { status: 301, headers: { location: 'https://elsewhere.example/' }, body: '' },
} satisfies Record<string, FakeResponse>;
export type WebhookReceiverFailure = keyof typeof FAILURES;

export interface WebhookReceiver extends FakeServer<WebhookReceiverFailure> {
  /** URL to put in the destination config (path /hooks/tocsin). */
  webhookUrl: string;
  /** Verification result per request, same order as `requests`. */
  verifications: VerifyResult[];
  /** Requests whose signatures verified. */
  verified(): RecordedRequest[];
}

export interface WebhookReceiverOptions {
  /** The destination's signing secret; verification uses it. */
  secret: string;
  /** Clock for the timestamp tolerance check (default Date.now). */
  now?: () => number;
  /** Reject (401) requests that fail verification, like a careful receiver would. Default false (record only). */
  rejectInvalid?: boolean;
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const verifications: VerifyResult[] = [];
  const requests: RecordedRequest[] = [];
  const server = await startFakeHttp(FAILURES, () => {
    const result = verifications[verifications.length - 1];
    if (options.rejectInvalid && result && !result.ok) return { status: 401, body: result.reason };
    return { status: 200, body: { received: true } };
  });
  // Verify on arrival (before the handler or a scripted failure answers), so every request has a result.
  const originalPush = server.requests.push.bind(server.requests);
  server.requests.push = (...items: RecordedRequest[]): number => {
    for (const req of items) {
      verifications.push(
        verifyWebhook({
          secret: options.secret,
          headers: req.headers,
          body: req.rawBody,
          now: options.now?.() ?? Date.now(),
        }),
      );
      requests.push(req);
    }
    return originalPush(...items);
  };
  const reset = server.reset.bind(server);
  return Object.assign(server, {
    webhookUrl: `${server.url}/hooks/tocsin`,
    verifications,
    verified: () => server.requests.filter((_, i) => verifications[i]?.ok === true),
    reset() {
      reset();
      verifications.length = 0;
      requests.length = 0;
    },
  });
}
