import { isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** Slack incoming-webhook fake: `POST /services/T…/B…/<secret>`; answers 200 `ok`, errors are plain-text bodies. */
const FAILURES = {
  rate_limited: { status: 429, headers: { 'retry-after': '3' }, body: 'rate_limited' },
  invalid_payload: { status: 400, body: 'invalid_payload' },
  invalid_token: { status: 403, body: 'invalid_token' },
  action_prohibited: { status: 403, body: 'action_prohibited' },
  no_service: { status: 404, body: 'no_service' },
  channel_is_archived: { status: 410, body: 'channel_is_archived' },
  rollup_error: { status: 500, body: 'rollup_error' },
} satisfies Record<string, FakeResponse>;
export type Chatapp1WebhookFailure = keyof typeof FAILURES;

export interface Chatapp1WebhookFake extends FakeServer<Chatapp1WebhookFailure> {
  /** The webhook URL to put in the destination config. */
  webhookUrl: string;
}

export async function startChatapp1WebhookFake(): Promise<Chatapp1WebhookFake> {
  const path = '/services/T0000FAKE/B0000FAKE/fakeWebhookSecret0123456';
  const server = await startFakeHttp(FAILURES, (req) => {
    if (req.method !== 'POST' || req.path !== path) return { status: 404, body: 'no_service' };
    if (!isObject(req.json)) return { status: 400, body: 'invalid_payload' };
    if (typeof req.json.text !== 'string' && !Array.isArray(req.json.blocks) && !Array.isArray(req.json.attachments)) {
      return { status: 400, body: 'missing_text_or_fallback_or_attachments' };
    }
    return { status: 200, headers: { 'content-type': 'text/html' }, body: 'ok' };
  });
  return Object.assign(server, { webhookUrl: `${server.url}${path}` });
}
