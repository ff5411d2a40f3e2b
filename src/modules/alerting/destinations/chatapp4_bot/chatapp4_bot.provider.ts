import type { DestinationProvider } from '../destination.contract.ts';
import { matching, required, validateFields, type FieldCheck } from '../destination.validation.ts';
import { renderChatapp4Bot, type TelegramSendMessage, renderChatapp4BotGroup } from './chatapp4_bot.render.ts';
import { sendChatapp4Bot } from './chatapp4_bot.send.ts';

const chatId: FieldCheck = (v) => {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return null;
  if (typeof v === 'string' && /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/.test(v)) return null;
  return 'must be a numeric chat id or @channelusername';
};

/** Telegram bot. A supergroup migration is recorded in `state.chat_id` (see send). */
export const chatapp4BotProvider: DestinationProvider<TelegramSendMessage> = {
  type: 'chatapp4_bot',
  secretFields: ['bot_token'],
  validateConfig: (config) =>
    validateFields(config, {
      bot_token: required(matching(/^\d{3,20}:[A-Za-z0-9_-]{20,100}$/, 'a Telegram bot token (123456:ABC…)')),
      chat_id: required(chatId),
    }),
  render: renderChatapp4Bot,
  renderGroup: renderChatapp4BotGroup,
  send: sendChatapp4Bot,
};
