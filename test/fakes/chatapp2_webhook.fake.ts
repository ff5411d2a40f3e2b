import { isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** Discord Execute Webhook fake: `POST /api/webhooks/{id}/{token}` (`?wait=true` → 200 message, else 204). */
const FAILURES = {
  rate_limited: {
    status: 429,
    headers: { 'retry-after': '2', 'x-ratelimit-scope': 'user' },
    body: { message: 'You are being rate limited.', retry_after: 1.5, global: false },
  },
  unknown_webhook: { status: 404, body: { message: 'Unknown Webhook', code: 10015 } },
  invalid_token: { status: 401, body: { message: 'Invalid Webhook Token', code: 50027 } },
  missing_access: { status: 403, body: { message: 'Missing Access', code: 50001 } },
  invalid_form_body: { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors: {} } },
  too_large: { status: 413, body: { message: 'Request entity too large', code: 40005 } },
  bad_gateway: { status: 502, body: { message: 'no gateway available', code: 0 } },
} satisfies Record<string, FakeResponse>;
export type Chatapp2WebhookFailure = keyof typeof FAILURES;

export interface Chatapp2WebhookFake extends FakeServer<Chatapp2WebhookFailure> {
  webhookUrl: string;
}

export async function startChatapp2WebhookFake(): Promise<Chatapp2WebhookFake> {
  const id = '112233445566778899';
  const token = 'fake-discord-webhook-token_ABC';
  let seq = 0;
  const server = await startFakeHttp(FAILURES, (req) => {
    const m = /^\/api\/webhooks\/([^/]+)\/([^/]+)$/.exec(req.path);
    if (req.method !== 'POST' || !m || m[1] !== id) return FAILURES.unknown_webhook;
    if (m[2] !== token) return FAILURES.invalid_token;
    const body = req.json;
    if (!isObject(body)) return FAILURES.invalid_form_body;
    const embeds = Array.isArray(body.embeds) ? body.embeds : [];
    if (!body.content && embeds.length === 0)
      return { status: 400, body: { message: 'Cannot send an empty message', code: 50006 } };
    if (typeof body.content === 'string' && body.content.length > 2000) return FAILURES.invalid_form_body;
    for (const e of embeds) {
      if (
        !isObject(e) ||
        (typeof e.title === 'string' && e.title.length > 256) ||
        (typeof e.description === 'string' && e.description.length > 4096)
      ) {
        return FAILURES.invalid_form_body;
      }
    }
    seq += 1;
    if (req.query.wait !== 'true') return { status: 204 };
    return {
      status: 200,
      body: {
        id: `12000000000000000${seq}`,
        type: 0,
        channel_id: '998877',
        webhook_id: id,
        content: body.content ?? '',
        embeds,
      },
    };
  });
  return Object.assign(server, { webhookUrl: `${server.url}/api/webhooks/${id}/${token}` });
}
