import { Type, type Static } from '@sinclair/typebox';
import { configObject, matching, nonEmptyText } from '../destination.validation.ts';

/** Slack app: the installation (from the install flow) and the channel to post in. */
export const Chatapp1ChannelConfig = configObject({
  installation_id: nonEmptyText(200, { description: 'The Slack installation (team id) from the install flow.' }),
  channel_id: matching('^[CGD][A-Z0-9]{2,}$', 'a Slack channel id such as C0123456789', {
    description: 'A Slack channel id such as C0123456789.',
  }),
  bot_token: Type.Optional(
    matching('^xox[a-z]-[\\w-]+$', 'a Slack bot token (xoxb-…)', {
      description: 'Filled by the install flow; not typed by users.',
      secret: true,
    }),
  ),
});
export type Chatapp1ChannelConfig = Static<typeof Chatapp1ChannelConfig>;
