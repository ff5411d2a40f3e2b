/**
 * Public surface of the destination providers. The alerting pipeline uses only this file:
 *
 *   const registry = createProviderRegistry();
 *   const provider = registry.get(destination.type)!;
 *   provider.validateConfig(input.config)            // at save time → [{field:'config.url', issue}]
 *   const parsed = provider.parseConfig(stored)       // when read back for a delivery → typed config or issues
 *   const req = provider.render(event, destination, delivery, ctx);   // pure; re-render on every attempt
 *   const result = await provider.send(req, destination, delivery, { ...ctx, signingSecret });
 *   // result.outcome: ok | retry (retry_after_ms?) | payload_rejected | destination_broken | reauthorize
 *   // merge result.state_patch (if any) into destination.state
 */
export {
  DESTINATION_TYPES,
  EVENT_TYPES,
  type AlertEvent,
  type ConfigIssue,
  type Delivery,
  type DestinationProvider,
  type DestinationRecord,
  type DestinationType,
  type EventType,
  type ParsedConfig,
  type Mailer,
  type MailAttachment,
  type MailMessage,
  type ReportFileSource,
  type MailResult,
  type ProviderContext,
  type RenderContext,
  type SendOutcome,
  type SendResult,
} from './destination.contract.ts';
export { createProviderRegistry, destinationConfigSchemas, maskConfig } from './destination.registry.ts';
export {
  createBaseUrlResolver,
  createProviderContext,
  DEFAULT_BASE_URLS,
  type ProviderContextOptions,
  type ProviderEndpoints,
} from './destination.context.ts';
export {
  messageFor,
  formatDuration,
  rfc3339,
  severityOf,
  type AlertMessage,
  type Severity,
} from './destination.message.ts';
export { maskUrl, parseRetryAfter } from './destination.http.ts';
export { INCIDENT_TOOL_SKIP_REFERENCE } from './destination.skip.ts';
export {
  buildInstallUrl,
  exchangeCode,
  DEFAULT_SLACK_SCOPES,
  type ExchangeCodeInput,
  type ExchangeCodeResult,
  type InstallUrlInput,
  type SlackInstallation,
} from './chatapp1_channel/chatapp1_channel.oauth.ts';
export { incidentMessageId } from './email/email.render.ts';
export {
  generateSigningSecret,
  signWebhook,
  verifyWebhook,
  type SignInput,
  type VerifyInput,
  type VerifyResult,
  type WebhookSignatures,
} from './generic_webhook/generic_webhook.signing.ts';
export { webhookPayload } from './generic_webhook/generic_webhook.render.ts';
