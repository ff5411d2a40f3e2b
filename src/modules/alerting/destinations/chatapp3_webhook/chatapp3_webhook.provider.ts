import type { DestinationProvider } from '../destination.contract.ts';
import { httpsUrl, required, validateFields } from '../destination.validation.ts';
import { renderChatapp3Webhook, type Chatapp3Request, renderChatapp3WebhookGroup } from './chatapp3_webhook.render.ts';
import { sendChatapp3Webhook } from './chatapp3_webhook.send.ts';

/** Teams Workflows webhook, or Google Chat webhook (chosen from the URL). The URL carries the secret (sig= / token=). */
export const chatapp3WebhookProvider: DestinationProvider<Chatapp3Request> = {
  type: 'chatapp3_webhook',
  secretFields: ['url'],
  validateConfig: (config) => validateFields(config, { url: required(httpsUrl) }),
  render: renderChatapp3Webhook,
  renderGroup: renderChatapp3WebhookGroup,
  send: sendChatapp3Webhook,
};
