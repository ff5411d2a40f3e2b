import type { Static } from '@sinclair/typebox';
import { configObject, httpsUrl } from '../destination.validation.ts';

export const Chatapp2WebhookConfig = configObject({
  url: httpsUrl({
    description: 'The Discord webhook URL (it carries the credential: read back masked).',
    secret: true,
  }),
});
export type Chatapp2WebhookConfig = Static<typeof Chatapp2WebhookConfig>;
