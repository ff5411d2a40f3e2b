/**
 * `config.ca_certificate` of http and tls monitors: the PEM of one or more certificates the probe trusts besides the
 * process's roots (a private CA, or a self-signed server certificate itself).
 */
import { X509Certificate } from 'node:crypto';

/** Bytes of PEM accepted: a long chain or a small bundle fits; a whole system trust store does not. */
export const CA_CERTIFICATE_MAX_BYTES = 65_536;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const BEGIN = /-----BEGIN /g;
// Text between blocks is allowed (bundles carry comments), control characters other than line breaks are not.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Why `value` is not a usable CA certificate text, or null when it is. */
export function caCertificateIssue(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string of PEM certificates';
  if (Buffer.byteLength(value, 'utf8') > CA_CERTIFICATE_MAX_BYTES)
    return `must be at most ${CA_CERTIFICATE_MAX_BYTES} bytes of PEM`;
  if (CONTROL.test(value)) return 'must not contain control characters';
  const begins = (value.match(BEGIN) ?? []).length;
  if (begins === 0) return 'must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)';
  const blocks = [...value.matchAll(PEM_BLOCK)];
  if (blocks.length !== begins) return 'holds a PEM block without its -----END----- line';
  for (const [i, block] of blocks.entries()) {
    const label = block[1]!;
    // Refused rather than stored: a key pasted by mistake must not sit in a monitor's config.
    if (label.includes('PRIVATE KEY')) return 'must hold certificates only, never a private key';
    if (label !== 'CERTIFICATE') return `block ${i + 1} is a ${label}, not a CERTIFICATE`;
    try {
      new X509Certificate(block[0]);
    } catch {
      return `certificate ${i + 1} is not a valid X.509 certificate`;
    }
  }
  return null;
}
