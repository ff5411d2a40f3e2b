/**
 * A `lookup` for `net.connect`, `tls.connect` and undici's `connect` option that resolves each host once through the
 * vetting resolver and then always answers that vetted address: whatever DNS says later, the connection goes where
 * the guard looked.
 */
import type { LookupAddress, LookupOneOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { resolveVetted, type NetworkPolicy, type VettedHost } from './host.resolution.ts';

export interface PinnedResolution {
  /** Resolves and vets `host` the first time; every later call (and `lookup`) answers that same result. */
  resolve(host: string): Promise<VettedHost>;
  /** Node's lookup signature over {@link resolve}: connections made with it reach only vetted addresses. */
  lookup: LookupFunction;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createPinnedResolution(policy: NetworkPolicy): PinnedResolution {
  const pinned = new Map<string, Promise<VettedHost>>();
  const resolve = (host: string): Promise<VettedHost> => {
    let vetted = pinned.get(host);
    if (!vetted) {
      vetted = resolveVetted(host, policy);
      pinned.set(host, vetted);
    }
    return vetted;
  };
  const lookup = (hostname: string, options: LookupOneOptions & { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (vetted) => {
        if (options.all) callback(null, [{ address: vetted.address, family: vetted.family }]);
        else callback(null, vetted.address, vetted.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, ''),
    );
  };
  // Node's LookupFunction type is an overload set; this one implementation serves both call shapes.
  return { resolve, lookup: lookup as unknown as LookupFunction };
}
