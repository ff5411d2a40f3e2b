import type { Static } from '@sinclair/typebox';
import { configObject, httpsUrl } from '../destination.validation.ts';

/** The receiver; the signing secret is not config (it is sealed beside it and shown once, at creation). */
export const GenericWebhookConfig = configObject({
  url: httpsUrl({ description: 'The receiver URL (https; http only for loopback hosts).' }),
});
export type GenericWebhookConfig = Static<typeof GenericWebhookConfig>;
