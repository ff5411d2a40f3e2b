import { Type, type Static } from '@sinclair/typebox';
import { configObject, matching } from '../destination.validation.ts';

const CHAT_ID_ISSUE = 'must be a numeric chat id or @channelusername';

export const Chatapp4BotConfig = configObject({
  bot_token: matching('^\\d{3,20}:[A-Za-z0-9_-]{20,100}$', 'a Telegram bot token (123456:ABC…)', {
    description: 'Telegram bot token (123456:ABC…).',
    secret: true,
  }),
  // One node rather than a union, so a wrong value gets one issue (the pattern applies to strings only).
  chat_id: Type.Unsafe<string | number>({
    type: ['integer', 'string'],
    minimum: Number.MIN_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
    pattern: '^(-?\\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$',
    description: 'Numeric chat id or @channelusername.',
    'x-issues': { type: CHAT_ID_ISSUE, minimum: CHAT_ID_ISSUE, maximum: CHAT_ID_ISSUE, pattern: CHAT_ID_ISSUE },
  }),
});
export type Chatapp4BotConfig = Static<typeof Chatapp4BotConfig>;
