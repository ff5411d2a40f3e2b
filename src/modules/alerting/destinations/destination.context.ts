import { createOutboundConnector, systemResolver } from '../../../platform/net/index.ts';
import type { DestinationType, Mailer, ProviderContext, ReportFileSource } from './destination.contract.ts';

/** The vendors' real endpoints; `providers.<type>.base_url` / `base_url_eu` override them (tests point them at fakes). */
export const DEFAULT_BASE_URLS: Partial<Record<DestinationType, { base_url: string; base_url_eu?: string }>> = {
  chatapp1_channel: { base_url: 'https://slack.com' },
  chatapp4_bot: { base_url: 'https://api.telegram.org' },
  oncall_pager1: { base_url: 'https://events.pagerduty.com' },
  oncall_pager2: { base_url: 'https://api.opsgenie.com', base_url_eu: 'https://api.eu.opsgenie.com' },
  incident_tool1: { base_url: 'https://api.incident.io' },
  incident_tool2: { base_url: 'https://api.rootly.com' },
};

export type ProviderEndpoints = Record<string, { base_url?: string; base_url_eu?: string }>;

/** `baseUrl(type, region)` over the configured endpoints with the vendor defaults; no trailing slash. */
export function createBaseUrlResolver(providers: ProviderEndpoints = {}): ProviderContext['baseUrl'] {
  return (type, region) => {
    const configured = providers[type];
    const defaults = DEFAULT_BASE_URLS[type];
    const url =
      region === 'eu'
        ? (configured?.base_url_eu ?? defaults?.base_url_eu ?? configured?.base_url ?? defaults?.base_url)
        : (configured?.base_url ?? defaults?.base_url);
    if (!url) throw new Error(`destination type ${type} has no base URL (it posts to the URL in its config)`);
    return url.replace(/\/+$/, '');
  };
}

export interface ProviderContextOptions {
  providers?: ProviderEndpoints;
  publicUrl: string;
  /** Tocsin version for `User-Agent: Tocsin/<version>`. */
  version: string;
  now: () => number;
  mailer?: Mailer;
  reportFiles?: ReportFileSource;
  timeoutMs?: number;
  /** The outbound connector's by default (below); webhook sends replace it with one vetted for their URL. */
  fetch?: typeof fetch;
}

/** Builds the context `send` needs; add `signingSecret` per generic_webhook send: `{...ctx, signingSecret}`. */
export function createProviderContext(options: ProviderContextOptions): ProviderContext {
  const ctx: ProviderContext = {
    baseUrl: createBaseUrlResolver(options.providers),
    fetch: options.fetch ?? providerFetch(),
    publicUrl: options.publicUrl.replace(/\/+$/, ''),
    userAgent: `Tocsin/${options.version}`,
    now: options.now,
    timeoutMs: options.timeoutMs ?? 15_000,
  };
  if (options.mailer) ctx.mailer = options.mailer;
  if (options.reportFiles) ctx.reportFiles = options.reportFiles;
  return ctx;
}

/**
 * The provider endpoints are the operator's (vendor defaults or `providers.<type>.base_url`, which may well be an
 * internal proxy): they go through the outbound connector as trusted endpoints, every address allowed, each request
 * pinned to the address it resolved to.
 */
function providerFetch(): typeof fetch {
  const connector = createOutboundConnector({ allowPrivateTargets: true, resolver: systemResolver });
  // undici's fetch, the implementation behind the global one (only nominal class names differ).
  return connector.fetch as unknown as typeof fetch;
}
