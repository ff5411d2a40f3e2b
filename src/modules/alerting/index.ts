export { createAlerting, type Alerting, type AlertingDeps } from './alerting.module.ts';
export { alertingMigrations } from './alerting.migrations.ts';
export { DestinationsService, requireAdmin as requireDestinationAdmin } from './destination.service.ts';
export type {
  DestinationCreateInput,
  DestinationPatchInput,
  DestinationView,
  TestResult,
} from './destination.inputs.ts';
export { DestinationTestSend } from './destination.test-send.ts';
export { AlertLinks } from './alert-links.ts';
export {
  Chatapp1ChannelInstall,
  type InstallCallbackResult,
} from './destinations/chatapp1_channel/chatapp1_channel.install.ts';
export type { AlertPipeline, DeliveryEnded } from './pipeline/pipeline.ts';
export { ReportDeliveryFacts, type ReportDelivery } from './report-delivery.facts.ts';
export { IncidentDeliveries, type IncidentDelivery, type DeliveryOutcome } from './incident-deliveries.ts';
export {
  DELIVERY_STATUSES,
  type DeliveryRecord,
  type DeliveryStatus,
  type DeliveryTarget,
  type Destination,
} from './alerting.types.ts';
export { openWebhookUrl, privateTargetIssue, type HostResolver } from './network.guard.ts';
export { signWebhook, generateSigningSecret } from './destinations/generic_webhook/generic_webhook.signing.ts';
export {
  DESTINATION_TYPES,
  destinationConfigSchemas,
  type DestinationType,
  type Mailer,
  type ReportFileSource,
} from './destinations/index.ts';
