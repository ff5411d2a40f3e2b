import type { Static } from '@sinclair/typebox';
import { configObject, httpsUrl } from '../destination.validation.ts';

export const Chatapp1WebhookConfig = configObject({
  url: httpsUrl({
    description: 'The Slack incoming webhook URL (it carries the credential: read back masked).',
    secret: true,
  }),
});
export type Chatapp1WebhookConfig = Static<typeof Chatapp1WebhookConfig>;
