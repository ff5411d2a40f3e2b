import { defineProvider } from '../destination.provider.ts';
import { Chatapp1WebhookConfig } from './chatapp1_webhook.config.ts';
import { renderChatapp1Webhook, renderChatapp1WebhookGroup } from './chatapp1_webhook.render.ts';
import { sendChatapp1Webhook } from './chatapp1_webhook.send.ts';

/** Slack incoming webhook. The URL is the credential, so it is a secret field (masked on read). */
export const chatapp1WebhookProvider = defineProvider({
  type: 'chatapp1_webhook',
  configSchema: Chatapp1WebhookConfig,
  render: renderChatapp1Webhook,
  renderGroup: renderChatapp1WebhookGroup,
  send: sendChatapp1Webhook,
});
