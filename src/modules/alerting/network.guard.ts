/**
 * `network.allow_private_targets=false` for the URLs users type into webhook destinations: refused at save time when
 * they are, or resolve to, a private or special-purpose address (platform/net's one classification), and at every
 * send resolved once and connected to only through that vetted address (no second lookup for DNS rebinding to use).
 */
import {
  PrivateTargetError,
  createOutboundConnector,
  systemResolver,
  type HostResolver,
} from '../../platform/net/index.ts';
import type { DestinationType } from './destinations/index.ts';

export type { HostResolver } from '../../platform/net/index.ts';

/** Types that post to a URL the user typed (the others post to the operator-configured provider base URL). */
export const URL_TYPES: readonly DestinationType[] = [
  'chatapp1_webhook',
  'chatapp2_webhook',
  'chatapp3_webhook',
  'generic_webhook',
];

/** A webhook URL that may be sent to: `fetch` connects only to the addresses vetted for this send. */
export type OpenedUrl = { issue: string } | { issue: null; fetch: typeof fetch };

/** The issue with a webhook URL under the private-target policy, or null when it may be used (save-time check). */
export async function privateTargetIssue(
  url: string,
  allowPrivate: boolean,
  resolve: HostResolver = systemResolver,
): Promise<string | null> {
  if (allowPrivate) return null;
  return (await openWebhookUrl(url, allowPrivate, resolve)).issue;
}

/**
 * Resolves the URL's host once and vets every address; the returned `fetch` connects only to that vetted address,
 * whatever DNS answers later (the Host header and TLS server name stay the URL's name).
 */
export async function openWebhookUrl(
  url: string,
  allowPrivate: boolean,
  resolve: HostResolver = systemResolver,
): Promise<OpenedUrl> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { issue: 'is not a URL' };
  }
  // Pinned for this send: the request reaches the address vetted here (private ones only when allowed).
  const connector = createOutboundConnector({ allowPrivateTargets: allowPrivate, resolver: resolve }).pinned();
  // The connector's fetch is undici's, the implementation behind the global one (only nominal class names differ).
  // Every address allowed: nothing to refuse now; a name that does not resolve fails the request (a retry).
  if (allowPrivate) return { issue: null, fetch: connector.fetch as unknown as typeof fetch };
  try {
    await connector.vet(host);
  } catch (err) {
    if (err instanceof PrivateTargetError) return { issue: err.message };
    return { issue: `host ${host} does not resolve` };
  }
  return { issue: null, fetch: connector.fetch as unknown as typeof fetch };
}
