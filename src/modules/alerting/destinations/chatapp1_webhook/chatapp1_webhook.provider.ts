import type { DestinationProvider } from '../destination.contract.ts';
import { httpsUrl, required, validateFields } from '../destination.validation.ts';
import { renderChatapp1Webhook, type SlackWebhookBody, renderChatapp1WebhookGroup } from './chatapp1_webhook.render.ts';
import { sendChatapp1Webhook } from './chatapp1_webhook.send.ts';

/** Slack incoming webhook. The URL is the credential, so it is a secret field (masked on read). */
export const chatapp1WebhookProvider: DestinationProvider<SlackWebhookBody> = {
  type: 'chatapp1_webhook',
  secretFields: ['url'],
  validateConfig: (config) => validateFields(config, { url: required(httpsUrl) }),
  render: renderChatapp1Webhook,
  renderGroup: renderChatapp1WebhookGroup,
  send: sendChatapp1Webhook,
};
