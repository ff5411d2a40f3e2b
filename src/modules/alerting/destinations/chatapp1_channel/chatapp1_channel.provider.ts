import { defineProvider } from '../destination.provider.ts';
import { Chatapp1ChannelConfig } from './chatapp1_channel.config.ts';
import { renderChatapp1Channel, renderChatapp1ChannelGroup } from './chatapp1_channel.render.ts';
import { sendChatapp1Channel } from './chatapp1_channel.send.ts';

/**
 * Slack app (`chat.postMessage`). `bot_token` is filled by the OAuth install (see chatapp1_channel.oauth.ts),
 * not typed by the user.
 */
export const chatapp1ChannelProvider = defineProvider({
  type: 'chatapp1_channel',
  configSchema: Chatapp1ChannelConfig,
  render: renderChatapp1Channel,
  renderGroup: renderChatapp1ChannelGroup,
  send: sendChatapp1Channel,
});
