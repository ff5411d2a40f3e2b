import type { TObject } from '@sinclair/typebox';
import type { DestinationProvider, DestinationType } from './destination.contract.ts';
import { DESTINATION_TYPES } from './destination.contract.ts';
import { maskUrl } from './destination.http.ts';
import { chatapp1ChannelProvider } from './chatapp1_channel/chatapp1_channel.provider.ts';
import { chatapp1WebhookProvider } from './chatapp1_webhook/chatapp1_webhook.provider.ts';
import { chatapp2WebhookProvider } from './chatapp2_webhook/chatapp2_webhook.provider.ts';
import { chatapp3WebhookProvider } from './chatapp3_webhook/chatapp3_webhook.provider.ts';
import { chatapp4BotProvider } from './chatapp4_bot/chatapp4_bot.provider.ts';
import { oncallPager1Provider } from './oncall_pager1/oncall_pager1.provider.ts';
import { oncallPager2Provider } from './oncall_pager2/oncall_pager2.provider.ts';
import { incidentTool1Provider } from './incident_tool1/incident_tool1.provider.ts';
import { incidentTool2Provider } from './incident_tool2/incident_tool2.provider.ts';
import { emailProvider } from './email/email.provider.ts';
import { genericWebhookProvider } from './generic_webhook/generic_webhook.provider.ts';

/** Every destination type's provider, each typed with its own request and config (exhaustive by construction). */
const PROVIDERS: { [T in DestinationType]: { type: T; configSchema: TObject } } = {
  chatapp1_channel: chatapp1ChannelProvider,
  chatapp1_webhook: chatapp1WebhookProvider,
  chatapp2_webhook: chatapp2WebhookProvider,
  chatapp3_webhook: chatapp3WebhookProvider,
  chatapp4_bot: chatapp4BotProvider,
  oncall_pager1: oncallPager1Provider,
  oncall_pager2: oncallPager2Provider,
  incident_tool1: incidentTool1Provider,
  incident_tool2: incidentTool2Provider,
  email: emailProvider,
  generic_webhook: genericWebhookProvider,
};

/**
 * A fresh map of every destination type to its provider. The map erases each provider's request and config types:
 * render's output is only ever handed back to the same provider's send, and the config it gets is one its own
 * `parseConfig` accepted (the pipeline parses it when it reads the destination), hence the cast through `unknown`.
 */
export function createProviderRegistry(): Map<DestinationType, DestinationProvider> {
  return new Map(DESTINATION_TYPES.map((type) => [type, PROVIDERS[type] as unknown as DestinationProvider]));
}

/** Each destination type's config schema (the API's per-type `config`, chosen by `type`). */
export function destinationConfigSchemas(): { [T in DestinationType]: TObject } {
  const out = {} as { [T in DestinationType]: TObject };
  for (const type of DESTINATION_TYPES) out[type] = PROVIDERS[type].configSchema;
  return out;
}

/** Masks a config for reading back: secret fields become `****` + last 4 (URLs keep scheme, host and first segment). */
export function maskConfig(
  provider: Pick<DestinationProvider, 'secretFields'>,
  config: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const field of provider.secretFields) {
    const value = out[field];
    if (typeof value !== 'string' || value === '') continue;
    if (/^https?:\/\//i.test(value)) {
      out[field] = maskUrl(value);
      continue;
    }
    out[field] = value.length > 8 ? `****${value.slice(-4)}` : '****';
  }
  return out;
}
