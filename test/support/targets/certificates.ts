/** Test certificates: a local CA and leaf certificates with chosen names and validity. */
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

export interface Pem {
  key: string;
  cert: string;
}

export interface CertificateOptions {
  commonName: string;
  /** DNS names or IP addresses for the subjectAltName; default [commonName]. */
  altNames?: string[];
  notBefore?: Date;
  notAfter?: Date;
  /** Sign with this CA; self-signed when absent. */
  ca?: Pem;
  /** Make it a CA certificate. */
  isCa?: boolean;
}

export async function generateCertificate(opts: CertificateOptions): Promise<Pem> {
  const notBeforeDate = opts.notBefore ?? new Date(Date.now() - 24 * 3600_000);
  const notAfterDate = opts.notAfter ?? new Date(Date.now() + 365 * 24 * 3600_000);
  const altNames = (opts.altNames ?? [opts.commonName]).map((n) =>
    isIP(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n },
  );
  const pems = await generate([{ name: 'commonName', value: opts.commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: opts.isCa
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
          { name: 'extKeyUsage', serverAuth: true },
          { name: 'subjectAltName', altNames },
        ],
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
  return { key: pems.private, cert: pems.cert };
}

/** A CA valid from yesterday for ten years. */
export function generateTestCa(commonName = 'Tocsin Test CA'): Promise<Pem> {
  return generateCertificate({ commonName, isCa: true, notAfter: new Date(Date.now() + 10 * 365 * 24 * 3600_000) });
}

export const DAY_MS = 24 * 3600_000;
