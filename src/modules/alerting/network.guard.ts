import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../checks/index.ts';
import type { DestinationType } from './destinations/index.ts';

/** Types that post to a URL the user typed (the others post to the operator-configured provider base URL). */
export const URL_TYPES: readonly DestinationType[] = [
  'chatapp1_webhook',
  'chatapp2_webhook',
  'chatapp3_webhook',
  'generic_webhook',
];

export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/**
 * `network.allow_private_targets=false`: a webhook URL must not resolve to a loopback, private or link-local
 * address (checked after DNS resolution). Returns the issue, or null when the URL may be used.
 */
export async function privateTargetIssue(
  url: string,
  allowPrivate: boolean,
  resolve: HostResolver = systemResolver,
): Promise<string | null> {
  if (allowPrivate) return null;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'is not a URL';
  }
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  if (addresses.some((a) => isPrivateAddress(a)))
    return 'resolves to a private, loopback or link-local address, which this server does not allow';
  return null;
}
