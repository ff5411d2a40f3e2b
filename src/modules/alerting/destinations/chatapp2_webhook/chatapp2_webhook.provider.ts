import type { DestinationProvider } from '../destination.contract.ts';
import { httpsUrl, required, validateFields } from '../destination.validation.ts';
import {
  renderChatapp2Webhook,
  type DiscordWebhookBody,
  renderChatapp2WebhookGroup,
} from './chatapp2_webhook.render.ts';
import { sendChatapp2Webhook } from './chatapp2_webhook.send.ts';

/** Discord webhook. The token is in the URL path, so the URL is a secret field. */
export const chatapp2WebhookProvider: DestinationProvider<DiscordWebhookBody> = {
  type: 'chatapp2_webhook',
  secretFields: ['url'],
  validateConfig: (config) => validateFields(config, { url: required(httpsUrl) }),
  render: renderChatapp2Webhook,
  renderGroup: renderChatapp2WebhookGroup,
  send: sendChatapp2Webhook,
};
