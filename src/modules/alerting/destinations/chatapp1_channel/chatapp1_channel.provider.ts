import type { DestinationProvider } from '../destination.contract.ts';
import { matching, nonEmptyString, optional, required, validateFields } from '../destination.validation.ts';
import { renderChatapp1Channel, type SlackPostMessage, renderChatapp1ChannelGroup } from './chatapp1_channel.render.ts';
import { sendChatapp1Channel } from './chatapp1_channel.send.ts';

/**
 * Slack app (`chat.postMessage`). `bot_token` is filled by the OAuth install (see chatapp1_channel.oauth.ts),
 * not typed by the user.
 */
export const chatapp1ChannelProvider: DestinationProvider<SlackPostMessage> = {
  type: 'chatapp1_channel',
  secretFields: ['bot_token'],
  validateConfig: (config) =>
    validateFields(config, {
      installation_id: required(nonEmptyString(200)),
      channel_id: required(matching(/^[CGD][A-Z0-9]{2,}$/, 'a Slack channel id such as C0123456789')),
      bot_token: optional(matching(/^xox[a-z]-[\w-]+$/, 'a Slack bot token (xoxb-…)')),
    }),
  render: renderChatapp1Channel,
  renderGroup: renderChatapp1ChannelGroup,
  send: sendChatapp1Channel,
};
