import { defineProvider } from '../destination.provider.ts';
import { Chatapp4BotConfig } from './chatapp4_bot.config.ts';
import { renderChatapp4Bot, renderChatapp4BotGroup } from './chatapp4_bot.render.ts';
import { sendChatapp4Bot } from './chatapp4_bot.send.ts';

/** Telegram bot. A supergroup migration is recorded in `state.chat_id` (see send). */
export const chatapp4BotProvider = defineProvider({
  type: 'chatapp4_bot',
  configSchema: Chatapp4BotConfig,
  render: renderChatapp4Bot,
  renderGroup: renderChatapp4BotGroup,
  send: sendChatapp4Bot,
});
