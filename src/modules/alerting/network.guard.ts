/**
 * `network.allow_private_targets=false` for the URLs users type into webhook destinations: refused at save time when
 * they are, or resolve to, a private or special-purpose address (platform/net's one classification), and at every
 * send resolved once and connected to only through that vetted address (no second lookup for DNS rebinding to use).
 */
import { Agent, fetch as undiciFetch } from 'undici';
import {
  PrivateTargetError,
  createPinnedResolution,
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

/** A webhook URL that may be sent to: `fetch` is pinned to its vetted address (null when private targets are allowed). */
export type OpenedUrl = { issue: string } | { issue: null; fetch: typeof fetch | null };

/** The issue with a webhook URL under the private-target policy, or null when it may be used (save-time check). */
export async function privateTargetIssue(
  url: string,
  allowPrivate: boolean,
  resolve: HostResolver = systemResolver,
): Promise<string | null> {
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
  if (allowPrivate) return { issue: null, fetch: null };
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return { issue: 'is not a URL' };
  }
  const pinned = createPinnedResolution({ allowPrivateTargets: false, resolver: resolve });
  try {
    await pinned.resolve(host);
  } catch (err) {
    if (err instanceof PrivateTargetError) return { issue: err.message };
    return { issue: `host ${host} does not resolve` };
  }
  return { issue: null, fetch: pinnedFetch(pinned.lookup) };
}

/** fetch through a fresh undici Agent whose every connection asks `lookup` (the pinned, vetted answer). */
function pinnedFetch(lookup: ReturnType<typeof createPinnedResolution>['lookup']): typeof fetch {
  const send = async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
    const dispatcher = new Agent({ connect: { lookup } });
    try {
      return await undiciFetch(input, { ...init, dispatcher });
    } finally {
      // Graceful: waits for the response body the caller still reads, then closes the connection.
      void dispatcher.close();
    }
  };
  // undici's fetch is the implementation behind the global one; its types differ only in nominal class names.
  return send as unknown as typeof fetch;
}
