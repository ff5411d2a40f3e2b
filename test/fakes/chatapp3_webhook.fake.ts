import { isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/**
 * Teams Workflows trigger + Google Chat webhook fake (one server, two URLs).
 * Teams: `POST /workflows/<id>/triggers/manual/paths/invoke?…&sig=<sig>` → 202, empty body.
 * Google Chat: `POST /v1/spaces/<space>/messages?key=…&token=<token>` → 200 Message; `requestId` is idempotent.
 */
const gError = (code: number, status: string, message: string): FakeResponse => ({
  status: code,
  body: { error: { code, message, status } },
});

const FAILURES = {
  teams_throttled: {
    status: 429,
    headers: { 'retry-after': '4' },
    body: { error: { code: 'TooManyRequests', message: 'Rate limit is exceeded.' } },
  },
  teams_flow_deleted: {
    status: 404,
    body: { error: { code: 'WorkflowNotFound', message: 'The workflow could not be found.' } },
  },
  teams_bad_request: {
    status: 400,
    body: { error: { code: 'InvalidRequestContent', message: 'The request content is not valid.' } },
  },
  teams_legacy_failure: {
    status: 200,
    body: 'Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 413',
  },
  chat_rate_limited: gError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'),
  chat_invalid_argument: gError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'),
  chat_not_found: gError(404, 'NOT_FOUND', 'Requested entity was not found.'),
  chat_permission_denied: gError(403, 'PERMISSION_DENIED', 'The caller does not have permission'),
  server_error: { status: 500, body: 'internal error' },
} satisfies Record<string, FakeResponse>;
export type Chatapp3WebhookFailure = keyof typeof FAILURES;

export interface Chatapp3WebhookFake extends FakeServer<Chatapp3WebhookFailure> {
  teamsUrl: string;
  googleChatUrl: string;
  /** Google Chat messages created (requestId retries return the existing one). */
  chatMessages: Array<{
    name: string;
    threadKey: string | null;
    requestId: string | null;
    body: Record<string, unknown>;
  }>;
}

export async function startChatapp3WebhookFake(): Promise<Chatapp3WebhookFake> {
  const teamsPath = '/workflows/0f1e2d3c4b5a/triggers/manual/paths/invoke';
  const sig = 'fakeSignature123';
  const space = 'AAAAfakeSpace';
  const token = 'fakeChatToken456';
  const chatMessages: Chatapp3WebhookFake['chatMessages'] = [];
  const server = await startFakeHttp(FAILURES, (req) => {
    if (req.method !== 'POST') return { status: 405 };
    if (req.path === teamsPath) {
      if (req.query.sig !== sig)
        return {
          status: 401,
          body: { error: { code: 'DirectApiAuthorizationRequired', message: 'The request must be authenticated.' } },
        };
      const body = req.json;
      const attachments = isObject(body) && Array.isArray(body.attachments) ? body.attachments : [];
      const card = attachments[0];
      if (
        !isObject(card) ||
        card.contentType !== 'application/vnd.microsoft.card.adaptive' ||
        !isObject(card.content) ||
        card.content.type !== 'AdaptiveCard'
      ) {
        return FAILURES.teams_bad_request;
      }
      return { status: 202 };
    }
    if (req.path === `/v1/spaces/${space}/messages`) {
      if (req.query.token !== token)
        return gError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
      const body = req.json;
      if (!isObject(body) || (typeof body.text !== 'string' && !Array.isArray(body.cardsV2)))
        return FAILURES.chat_invalid_argument;
      const requestId = req.query.requestId ?? null;
      const existing = requestId ? chatMessages.find((m) => m.requestId === requestId) : undefined;
      const threadKey =
        isObject(body.thread) && typeof body.thread.threadKey === 'string' ? body.thread.threadKey : null;
      const message = existing ?? {
        name: `spaces/${space}/messages/msg${chatMessages.length + 1}`,
        threadKey,
        requestId,
        body,
      };
      if (!existing) chatMessages.push(message);
      return {
        status: 200,
        body: {
          name: message.name,
          text: body.text,
          thread: { name: `spaces/${space}/threads/${message.threadKey ?? message.name}` },
        },
      };
    }
    return gError(404, 'NOT_FOUND', 'Requested entity was not found.');
  });
  return Object.assign(server, {
    teamsUrl: `${server.url}${teamsPath}?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${sig}`,
    googleChatUrl: `${server.url}/v1/spaces/${space}/messages?key=fakeKey&token=${token}`,
    chatMessages,
  });
}
