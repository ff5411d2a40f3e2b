import { defineProvider } from '../destination.provider.ts';
import { GenericWebhookConfig } from './generic_webhook.config.ts';
import { renderGenericWebhook, renderGenericWebhookGroup } from './generic_webhook.render.ts';
import { sendGenericWebhook } from './generic_webhook.send.ts';

/**
 * Signed JSON POST. The signing secret is not part of `config`: the pipeline stores it sealed beside the destination
 * (shown once at creation, see generateSigningSecret) and passes it as `ctx.signingSecret`.
 */
export const genericWebhookProvider = defineProvider({
  type: 'generic_webhook',
  configSchema: GenericWebhookConfig,
  render: renderGenericWebhook,
  renderGroup: renderGenericWebhookGroup,
  send: sendGenericWebhook,
});
