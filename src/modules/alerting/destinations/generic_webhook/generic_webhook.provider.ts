import type { DestinationProvider } from '../destination.contract.ts';
import { httpsUrl, required, validateFields } from '../destination.validation.ts';
import {
  renderGenericWebhook,
  type GenericWebhookRequest,
  renderGenericWebhookGroup,
} from './generic_webhook.render.ts';
import { sendGenericWebhook } from './generic_webhook.send.ts';

/**
 * Signed JSON POST. The signing secret is not part of `config`: the pipeline stores it sealed beside the destination
 * (shown once at creation, see generateSigningSecret) and passes it as `ctx.signingSecret`.
 */
export const genericWebhookProvider: DestinationProvider<GenericWebhookRequest> = {
  type: 'generic_webhook',
  secretFields: [],
  validateConfig: (config) => validateFields(config, { url: required(httpsUrl) }),
  render: renderGenericWebhook,
  renderGroup: renderGenericWebhookGroup,
  send: sendGenericWebhook,
};
