/**
 * TLS trust for the probes that verify certificates (http, tls): what the process trusts plus extra CAs.
 *
 * Node's `ca` option replaces the trusted roots, so a context for extra CAs is built from Node's default CA set
 * (its bundled roots, `NODE_EXTRA_CA_CERTS`, the system store under `--use-system-ca`) plus those CAs: a monitor
 * with its own CA still verifies public sites it redirects to. Building one parses every root (about 35 ms and
 * 0.8 MB each, measured on Node 24), so contexts are kept per distinct CA set, never built per check.
 */
import { createHash } from 'node:crypto';
// Trust material only, no connection; a namespace import because getCACertificates is absent before Node 22.15.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import * as tls from 'node:tls';
import type { SecureContext } from 'node:tls';

/** Distinct CA sets kept; the least recently used is dropped beyond this (a few tens of MB at most). */
export const SECURE_CONTEXT_CACHE_SIZE = 32;

/** The secure context trusting the process's CAs plus `extraCas` (PEM texts; empty ones ignored); undefined when
 *  there is none, meaning Node's default context. */
export type SecureContextFor = (extraCas: ReadonlyArray<string | null | undefined>) => SecureContext | undefined;

export function defaultCaCertificates(): readonly string[] {
  // getCACertificates arrived in Node 22.15 / 23.10; before it, the bundled roots are the default set.
  return typeof tls.getCACertificates === 'function' ? tls.getCACertificates('default') : tls.rootCertificates;
}

export function createSecureContextCache(maxEntries = SECURE_CONTEXT_CACHE_SIZE): SecureContextFor {
  const contexts = new Map<string, SecureContext>();
  return (extraCas) => {
    const cas = extraCas.filter((ca): ca is string => typeof ca === 'string' && ca.trim() !== '');
    if (cas.length === 0) return undefined;
    const key = createHash('sha256').update(cas.join('\n')).digest('hex');
    let context = contexts.get(key);
    if (context) {
      contexts.delete(key); // re-inserted below: Map order is the recency order
    } else {
      context = tls.createSecureContext({ ca: [...defaultCaCertificates(), ...cas] });
      if (contexts.size >= maxEntries) contexts.delete(contexts.keys().next().value!);
    }
    contexts.set(key, context);
    return context;
  };
}
