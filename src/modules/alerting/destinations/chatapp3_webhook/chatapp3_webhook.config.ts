import type { Static } from '@sinclair/typebox';
import { configObject, httpsUrl } from '../destination.validation.ts';

export const Chatapp3WebhookConfig = configObject({
  url: httpsUrl({
    description: 'The Teams Workflows or Google Chat webhook URL (it carries the credential: read back masked).',
    secret: true,
  }),
});
export type Chatapp3WebhookConfig = Static<typeof Chatapp3WebhookConfig>;
