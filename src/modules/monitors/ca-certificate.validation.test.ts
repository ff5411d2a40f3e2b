import { beforeAll, describe, expect, it } from 'vitest';
import { generateCertificate, generateTestCa, type Pem } from '../../../test/support/targets/index.ts';
import { CA_CERTIFICATE_MAX_BYTES, caCertificateIssue } from './ca-certificate.validation.ts';

describe('config.ca_certificate', () => {
  let ca: Pem;
  let leaf: Pem;
  beforeAll(async () => {
    ca = await generateTestCa('Private Test CA');
    leaf = await generateCertificate({ commonName: 'internal.example', ca });
  });

  it('accepts one certificate, a bundle, CRLF line ends and comments between blocks', () => {
    expect(caCertificateIssue(ca.cert)).toBeNull();
    expect(caCertificateIssue(`# Private Test CA\n${ca.cert}\n# its server\n${leaf.cert}`)).toBeNull();
    expect(caCertificateIssue(ca.cert.replace(/\n/g, '\r\n'))).toBeNull();
  });

  it('names what is wrong', () => {
    expect(caCertificateIssue(['x'])).toBe('must be a string of PEM certificates');
    expect(caCertificateIssue('')).toBe('must hold at least one PEM certificate (-----BEGIN CERTIFICATE-----)');
    expect(caCertificateIssue(ca.cert.replace('-----END CERTIFICATE-----', ''))).toBe(
      'holds a PEM block without its -----END----- line',
    );
    expect(caCertificateIssue(`${ca.cert}${leaf.key}`)).toBe('must hold certificates only, never a private key');
    expect(caCertificateIssue('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toBe(
      'certificate 1 is not a valid X.509 certificate',
    );
    expect(caCertificateIssue(`${ca.cert}-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----`)).toBe(
      'certificate 2 is not a valid X.509 certificate',
    );
    expect(caCertificateIssue('-----BEGIN X509 CRL-----\nAAAA\n-----END X509 CRL-----')).toBe(
      'block 1 is a X509 CRL, not a CERTIFICATE',
    );
    expect(caCertificateIssue(`${ca.cert}\u0000`)).toBe('must not contain control characters');
  });

  it('counts the limit in bytes', () => {
    const padded = (n: number) => `${ca.cert}${' '.repeat(n - Buffer.byteLength(ca.cert))}`;
    expect(caCertificateIssue(padded(CA_CERTIFICATE_MAX_BYTES))).toBeNull();
    expect(caCertificateIssue(padded(CA_CERTIFICATE_MAX_BYTES + 1))).toBe('must be at most 65536 bytes of PEM');
  });
});
