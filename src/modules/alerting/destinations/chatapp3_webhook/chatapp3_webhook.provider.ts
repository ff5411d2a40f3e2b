import { defineProvider } from '../destination.provider.ts';
import { Chatapp3WebhookConfig } from './chatapp3_webhook.config.ts';
import { renderChatapp3Webhook, renderChatapp3WebhookGroup } from './chatapp3_webhook.render.ts';
import { sendChatapp3Webhook } from './chatapp3_webhook.send.ts';

/** Teams Workflows webhook, or Google Chat webhook (chosen from the URL). The URL carries the secret (sig= / token=). */
export const chatapp3WebhookProvider = defineProvider({
  type: 'chatapp3_webhook',
  configSchema: Chatapp3WebhookConfig,
  render: renderChatapp3Webhook,
  renderGroup: renderChatapp3WebhookGroup,
  send: sendChatapp3Webhook,
});
