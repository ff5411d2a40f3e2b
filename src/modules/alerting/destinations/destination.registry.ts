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

/**
 * Each provider is typed with its own request type; the registry erases it (render's output is only ever handed
 * back to the same provider's send), hence the cast through `unknown`.
 */
const PROVIDERS: { [T in DestinationType]: DestinationProvider<never> & { type: T } } = {
  chatapp1_channel: chatapp1ChannelProvider as DestinationProvider<never> & { type: 'chatapp1_channel' },
  chatapp1_webhook: chatapp1WebhookProvider as DestinationProvider<never> & { type: 'chatapp1_webhook' },
  chatapp2_webhook: chatapp2WebhookProvider as DestinationProvider<never> & { type: 'chatapp2_webhook' },
  chatapp3_webhook: chatapp3WebhookProvider as DestinationProvider<never> & { type: 'chatapp3_webhook' },
  chatapp4_bot: chatapp4BotProvider as DestinationProvider<never> & { type: 'chatapp4_bot' },
  oncall_pager1: oncallPager1Provider as DestinationProvider<never> & { type: 'oncall_pager1' },
  oncall_pager2: oncallPager2Provider as DestinationProvider<never> & { type: 'oncall_pager2' },
  incident_tool1: incidentTool1Provider as DestinationProvider<never> & { type: 'incident_tool1' },
  incident_tool2: incidentTool2Provider as DestinationProvider<never> & { type: 'incident_tool2' },
  email: emailProvider as DestinationProvider<never> & { type: 'email' },
  generic_webhook: genericWebhookProvider as DestinationProvider<never> & { type: 'generic_webhook' },
};

/** A fresh map of every destination type to its provider (exhaustive by construction). */
export function createProviderRegistry(): Map<DestinationType, DestinationProvider> {
  return new Map(DESTINATION_TYPES.map((type) => [type, PROVIDERS[type] as unknown as DestinationProvider]));
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
