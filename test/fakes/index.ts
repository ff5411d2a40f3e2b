/**
 * Local fakes of every destination provider's API, for unit and end-to-end tests.
 *
 * Every HTTP fake is a real server on 127.0.0.1 (random port) speaking the provider's wire format, and shares
 * this API (see fake-http.ts):
 *   fake.url                      base URL → put it in `providers.<type>.base_url` (or use fake.webhookUrl etc.)
 *   fake.requests                 [{method, path, url, query, headers, rawBody, json}] in arrival order
 *   fake.failNext(name|response, times?)   the next N requests get a named provider error or any {status, headers, body}
 *   fake.hangNext(times?)         the next N requests are never answered (timeout tests)
 *   fake.reset(); await fake.close()
 *
 *   type               start function                   config / URL                        named failures (besides raw responses)
 *   chatapp1_channel   startChatapp1ChannelFake()       base_url; config.bot_token=fake.botToken, channel C0123456789
 *                                                        ratelimited, token_revoked, account_inactive, invalid_auth, missing_scope,
 *                                                        channel_not_found, is_archived, not_in_channel, invalid_blocks, msg_too_long,
 *                                                        internal_error, server_error   (+ /api/oauth.v2.access: client-id/client-secret/good-code)
 *   chatapp1_webhook   startChatapp1WebhookFake()       config.url = fake.webhookUrl       rate_limited, invalid_payload, invalid_token, action_prohibited,
 *                                                                                           no_service, channel_is_archived, rollup_error
 *   chatapp2_webhook   startChatapp2WebhookFake()       config.url = fake.webhookUrl       rate_limited, unknown_webhook, invalid_token, missing_access,
 *                                                                                           invalid_form_body, too_large, bad_gateway
 *   chatapp3_webhook   startChatapp3WebhookFake()       fake.teamsUrl / fake.googleChatUrl teams_throttled, teams_flow_deleted, teams_bad_request,
 *                                                                                           teams_legacy_failure, chat_rate_limited, chat_invalid_argument,
 *                                                                                           chat_not_found, chat_permission_denied, server_error
 *   chatapp4_bot       startChatapp4BotFake()           base_url; fake.botToken, chats '-1001234567890' and '42'; fake.migrateChat(from, to)
 *                                                        too_many_requests, bot_blocked, bot_kicked, chat_not_found, unauthorized, bad_gateway
 *   oncall_pager1      startOncallPager1Fake()          base_url; fake.integrationKey; fake.alerts (by dedup_key)
 *                                                        throttled, invalid_event, server_error
 *   oncall_pager2      startOncallPager2Fake()          base_url (and base_url_eu: start a second fake); fake.apiKey; fake.alerts (by alias)
 *                                                        rate_limited, forbidden, payment_required, unprocessable, server_error
 *   incident_tool1     startIncidentTool1Fake()         base_url; fake.apiKey, fake.severityIds[0]; fake.incidents
 *                                                        rate_limited, forbidden, validation_error, server_error
 *   incident_tool2     startIncidentTool2Fake()         base_url; fake.apiKey; fake.incidents
 *                                                        rate_limited, required_field, not_found, server_error
 *   generic_webhook    startWebhookReceiver({secret})   config.url = fake.webhookUrl; fake.verifications / fake.verified()
 *                                                        gone, rate_limited, server_error, bad_gateway, request_timeout, bad_request,
 *                                                        unauthorized, redirect
 *   email              startSmtpServer()                createMailer({smtpUrl: smtp.url, …}); smtp.messages [{from,to,raw,headers,subject}];
 *                                                        smtp.failNext({stage:'mail'|'rcpt'|'data', code}); rejectRecipients option
 *
 * `startAllFakes()` starts them all and returns `providers`, ready for the config's `providers` section.
 */
import type { ProviderEndpoints } from '../../src/modules/alerting/destinations/index.ts';
import { startChatapp1ChannelFake, type Chatapp1ChannelFake } from './chatapp1_channel.fake.ts';
import { startChatapp1WebhookFake, type Chatapp1WebhookFake } from './chatapp1_webhook.fake.ts';
import { startChatapp2WebhookFake, type Chatapp2WebhookFake } from './chatapp2_webhook.fake.ts';
import { startChatapp3WebhookFake, type Chatapp3WebhookFake } from './chatapp3_webhook.fake.ts';
import { startChatapp4BotFake, type Chatapp4BotFake } from './chatapp4_bot.fake.ts';
import { startOncallPager1Fake, type OncallPager1Fake } from './oncall_pager1.fake.ts';
import { startOncallPager2Fake, type OncallPager2Fake } from './oncall_pager2.fake.ts';
import { startIncidentTool1Fake, type IncidentTool1Fake } from './incident_tool1.fake.ts';
import { startIncidentTool2Fake, type IncidentTool2Fake } from './incident_tool2.fake.ts';
import { startSmtpServer, type FakeSmtpServer } from './smtp.fake.ts';

export { startFakeHttp, headerOf, type FakeResponse, type FakeServer, type RecordedRequest } from './fake-http.ts';
export {
  startChatapp1ChannelFake,
  type Chatapp1ChannelFake,
  type Chatapp1ChannelFailure,
} from './chatapp1_channel.fake.ts';
export {
  startChatapp1WebhookFake,
  type Chatapp1WebhookFake,
  type Chatapp1WebhookFailure,
} from './chatapp1_webhook.fake.ts';
export {
  startChatapp2WebhookFake,
  type Chatapp2WebhookFake,
  type Chatapp2WebhookFailure,
} from './chatapp2_webhook.fake.ts';
export {
  startChatapp3WebhookFake,
  type Chatapp3WebhookFake,
  type Chatapp3WebhookFailure,
} from './chatapp3_webhook.fake.ts';
export { startChatapp4BotFake, type Chatapp4BotFake, type Chatapp4BotFailure } from './chatapp4_bot.fake.ts';
export { startOncallPager1Fake, type OncallPager1Fake, type OncallPager1Failure } from './oncall_pager1.fake.ts';
export { startOncallPager2Fake, type OncallPager2Fake, type OncallPager2Failure } from './oncall_pager2.fake.ts';
export { startIncidentTool1Fake, type IncidentTool1Fake, type IncidentTool1Failure } from './incident_tool1.fake.ts';
export { startIncidentTool2Fake, type IncidentTool2Fake, type IncidentTool2Failure } from './incident_tool2.fake.ts';
export {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverFailure,
  type WebhookReceiverOptions,
} from './generic_webhook.fake.ts';
export {
  startSmtpServer,
  parseHeaders,
  decodeMimeWords,
  type FakeSmtpServer,
  type ReceivedMail,
  type SmtpFailure,
} from './smtp.fake.ts';

export interface AllFakes {
  chatapp1_channel: Chatapp1ChannelFake;
  chatapp1_webhook: Chatapp1WebhookFake;
  chatapp2_webhook: Chatapp2WebhookFake;
  chatapp3_webhook: Chatapp3WebhookFake;
  chatapp4_bot: Chatapp4BotFake;
  oncall_pager1: OncallPager1Fake;
  /** US host; `oncall_pager2_eu` is the EU host. */
  oncall_pager2: OncallPager2Fake;
  oncall_pager2_eu: OncallPager2Fake;
  incident_tool1: IncidentTool1Fake;
  incident_tool2: IncidentTool2Fake;
  smtp: FakeSmtpServer;
  /** For the config's `providers` section. */
  providers: ProviderEndpoints;
  /** Forgets every fake's recorded requests and queued behaviour (each test case starts from nothing). */
  resetAll(): void;
  closeAll(): Promise<void>;
}

/** Starts every provider fake (not the webhook receiver, which needs the destination's secret). */
export async function startAllFakes(): Promise<AllFakes> {
  const [c1, c1w, c2, c3, c4, p1, p2, p2eu, i1, i2, smtp] = await Promise.all([
    startChatapp1ChannelFake(),
    startChatapp1WebhookFake(),
    startChatapp2WebhookFake(),
    startChatapp3WebhookFake(),
    startChatapp4BotFake(),
    startOncallPager1Fake(),
    startOncallPager2Fake(),
    startOncallPager2Fake(),
    startIncidentTool1Fake(),
    startIncidentTool2Fake(),
    startSmtpServer(),
  ]);
  const all = [c1, c1w, c2, c3, c4, p1, p2, p2eu, i1, i2, smtp];
  return {
    chatapp1_channel: c1,
    chatapp1_webhook: c1w,
    chatapp2_webhook: c2,
    chatapp3_webhook: c3,
    chatapp4_bot: c4,
    oncall_pager1: p1,
    oncall_pager2: p2,
    oncall_pager2_eu: p2eu,
    incident_tool1: i1,
    incident_tool2: i2,
    smtp,
    resetAll() {
      for (const fake of all) fake.reset();
    },
    providers: {
      chatapp1_channel: { base_url: c1.url },
      chatapp4_bot: { base_url: c4.url },
      oncall_pager1: { base_url: p1.url },
      oncall_pager2: { base_url: p2.url, base_url_eu: p2eu.url },
      incident_tool1: { base_url: i1.url },
      incident_tool2: { base_url: i2.url },
    },
    closeAll: async () => {
      await Promise.all(all.map((f) => f.close()));
    },
  };
}
