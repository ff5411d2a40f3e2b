import { defineProvider } from '../destination.provider.ts';
import { Chatapp2WebhookConfig } from './chatapp2_webhook.config.ts';
import { renderChatapp2Webhook, renderChatapp2WebhookGroup } from './chatapp2_webhook.render.ts';
import { sendChatapp2Webhook } from './chatapp2_webhook.send.ts';

/** Discord webhook. The token is in the URL path, so the URL is a secret field. */
export const chatapp2WebhookProvider = defineProvider({
  type: 'chatapp2_webhook',
  configSchema: Chatapp2WebhookConfig,
  render: renderChatapp2Webhook,
  renderGroup: renderChatapp2WebhookGroup,
  send: sendChatapp2Webhook,
});
