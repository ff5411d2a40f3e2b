import { headerOf, isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** Slack Web API fake: `POST /api/chat.postMessage` and `POST /api/oauth.v2.access`. Errors are HTTP 200 `{ok:false,error}` (429 for rate limits). */
const slackError = (error: string): FakeResponse => ({ status: 200, body: { ok: false, error } });

const FAILURES = {
  ratelimited: { status: 429, headers: { 'retry-after': '7' }, body: { ok: false, error: 'ratelimited' } },
  token_revoked: slackError('token_revoked'),
  account_inactive: slackError('account_inactive'),
  invalid_auth: slackError('invalid_auth'),
  missing_scope: slackError('missing_scope'),
  channel_not_found: slackError('channel_not_found'),
  is_archived: slackError('is_archived'),
  not_in_channel: slackError('not_in_channel'),
  invalid_blocks: slackError('invalid_blocks'),
  msg_too_long: slackError('msg_too_long'),
  internal_error: slackError('internal_error'),
  server_error: { status: 503, body: 'upstream unavailable' },
} satisfies Record<string, FakeResponse>;
export type Chatapp1ChannelFailure = keyof typeof FAILURES;

export interface Chatapp1ChannelFakeOptions {
  botToken?: string;
  channels?: string[];
  clientId?: string;
  clientSecret?: string;
  /** The OAuth code that exchanges successfully. */
  code?: string;
}

export interface Chatapp1ChannelFake extends FakeServer<Chatapp1ChannelFailure> {
  botToken: string;
  /** Messages posted successfully: channel, ts, body. */
  posted: Array<{ channel: string; ts: string; body: Record<string, unknown> }>;
}

export async function startChatapp1ChannelFake(options: Chatapp1ChannelFakeOptions = {}): Promise<Chatapp1ChannelFake> {
  const botToken = options.botToken ?? 'xoxb-1111-2222-faketoken';
  const channels = new Set(options.channels ?? ['C0123456789']);
  const clientId = options.clientId ?? 'client-id';
  const clientSecret = options.clientSecret ?? 'client-secret';
  const code = options.code ?? 'good-code';
  const posted: Chatapp1ChannelFake['posted'] = [];
  let seq = 0;
  const server = await startFakeHttp(FAILURES, (req) => {
    if (req.method !== 'POST') return { status: 405, body: slackError('method_not_supported').body };
    if (req.path === '/api/oauth.v2.access') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (headerOf(req, 'authorization') !== expected) return slackError('invalid_client_id');
      const form = new URLSearchParams(req.rawBody);
      if (form.get('code') !== code) return slackError('invalid_code');
      return {
        status: 200,
        body: {
          ok: true,
          access_token: botToken,
          token_type: 'bot',
          scope: 'chat:write,chat:write.public',
          bot_user_id: 'U0BOT',
          app_id: 'A0APP',
          team: { id: 'T0TEAM', name: 'Fake Team' },
          enterprise: null,
          is_enterprise_install: false,
        },
      };
    }
    if (req.path !== '/api/chat.postMessage') return { status: 404, body: slackError('unknown_method').body };
    const auth = headerOf(req, 'authorization');
    if (!auth) return slackError('not_authed');
    if (auth !== `Bearer ${botToken}`) return slackError('invalid_auth');
    if (!isObject(req.json)) return slackError('invalid_arguments');
    const body = req.json;
    if (typeof body.channel !== 'string' || !channels.has(body.channel)) return slackError('channel_not_found');
    if (typeof body.text !== 'string' && !Array.isArray(body.blocks)) return slackError('no_text');
    if (Array.isArray(body.blocks) && body.blocks.length > 50) return slackError('invalid_blocks');
    seq += 1;
    const ts = `${1767225600 + seq}.000${String(seq).padStart(3, '0')}`;
    posted.push({ channel: body.channel, ts, body });
    return { status: 200, body: { ok: true, channel: body.channel, ts, message: { text: body.text, ts } } };
  });
  return Object.assign(server, { botToken, posted });
}
