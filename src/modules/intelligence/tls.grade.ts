/**
 * The TLS grade: SSL Labs' rating guide (score = 30 % protocol + 30 % key exchange + 40 % cipher, then caps)
 * as far as a Node.js TLS client can measure it (reference §1). What cannot be measured is listed in
 * `not_tested` and never earns a better grade.
 */

export const TLS_PROTOCOLS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export type TlsProtocol = (typeof TLS_PROTOCOLS)[number];

export interface NegotiatedSuite {
  /** IANA / OpenSSL name, e.g. TLS_AES_128_GCM_SHA256. */
  name: string;
  /** Symmetric key bits. */
  bits: number;
  aead: boolean;
  forwardSecrecy: boolean;
}

export interface TlsFacts {
  /** Whether each version was accepted; absent = could not be tried. */
  protocols: Partial<Record<TlsProtocol, boolean>>;
  /** The suites the server accepted across the probes (at least the default one). */
  suites: NegotiatedSuite[];
  /** Ephemeral key exchange of the default handshake: ECDH curve bits or DH group bits; null = RSA key exchange. */
  ephemeral: { type: 'ECDH' | 'DH'; bits: number } | null;
  certificate: {
    keyType: 'RSA' | 'EC' | 'other';
    keyBits: number;
    /** e.g. sha256WithRSAEncryption; null when it could not be read. */
    signatureAlgorithm: string | null;
    trusted: boolean;
    hostnameMatch: boolean;
    expired: boolean;
    notYetValid: boolean;
    selfSigned: boolean;
  };
  /** Strict-Transport-Security max-age in seconds; null when absent or not measured. */
  hstsMaxAge: number | null;
}

export type TlsLetter = 'A+' | 'A' | 'A-' | 'B' | 'C' | 'D' | 'E' | 'F' | 'T' | 'M';

/** Best first; T and M (trust, name mismatch) rank below F as SSL Labs treats them as failing. */
export const TLS_LETTERS: readonly TlsLetter[] = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F', 'T', 'M'];

export interface GradeResult<L extends string> {
  grade: L;
  /** 0–100 before caps (TLS), or the rubric's percentage (domain). */
  score: number;
  reasons: string[];
  not_tested: string[];
}

/** What one client connection cannot see (reference §1.3 "Not measurable"). */
export const TLS_NOT_TESTED = [
  'SSL 2.0 and SSL 3.0 support',
  'RC4, 3DES, EXPORT and NULL suites (OpenSSL 3 cannot offer them)',
  'Heartbleed, ROBOT, POODLE (TLS), CRIME, Ticketbleed',
  'TLS_FALLBACK_SCSV',
  'secure renegotiation',
  'revocation (OCSP / CRL)',
];

const PROTOCOL_SCORE: Record<TlsProtocol, number> = { TLSv1: 90, 'TLSv1.1': 95, 'TLSv1.2': 100, 'TLSv1.3': 100 };
/** SSL Labs: 180 days of HSTS for A+ (testssl HSTS_MIN). */
export const HSTS_A_PLUS_SECONDS = 15_552_000;

function rsaKeyScore(bits: number): number {
  if (bits < 512) return 20;
  if (bits < 1024) return 40;
  if (bits < 2048) return 80;
  if (bits < 4096) return 90;
  return 100;
}

/** testssl.sh's EC equivalents of the RSA steps. */
function ecKeyScore(bits: number): number {
  if (bits < 110) return 20;
  if (bits < 123) return 40;
  if (bits < 163) return 80;
  if (bits < 225) return 90;
  return 100;
}

function cipherScore(bits: number): number {
  if (bits <= 0) return 0;
  if (bits < 128) return 20;
  if (bits < 256) return 80;
  return 100;
}

export function letterOf(score: number): TlsLetter {
  if (score >= 80) return 'A';
  if (score >= 65) return 'B';
  if (score >= 50) return 'C';
  if (score >= 35) return 'D';
  if (score >= 20) return 'E';
  return 'F';
}

function worse(a: TlsLetter, b: TlsLetter): TlsLetter {
  return TLS_LETTERS.indexOf(a) >= TLS_LETTERS.indexOf(b) ? a : b;
}

export function gradeTls(f: TlsFacts): GradeResult<TlsLetter> {
  const reasons: string[] = [];
  const notTested = [...TLS_NOT_TESTED];
  const offered = TLS_PROTOCOLS.filter((p) => f.protocols[p] === true);
  for (const p of TLS_PROTOCOLS) if (f.protocols[p] === undefined) notTested.push(`${p} support`);
  const c = f.certificate;
  const sig = (c.signatureAlgorithm ?? '').toLowerCase();
  if (!c.signatureAlgorithm) notTested.push('certificate signature algorithm');

  // Step 1: certificate (out-of-scale grades).
  if (!c.hostnameMatch)
    return { grade: 'M', score: 0, reasons: ['certificate name does not match the host'], not_tested: notTested };
  const trust: string[] = [];
  if (c.expired) trust.push('certificate expired');
  if (c.notYetValid) trust.push('certificate not yet valid');
  if (c.selfSigned) trust.push('certificate is self-signed');
  else if (!c.trusted) trust.push('certificate chain is not trusted');
  if (sig.includes('sha1')) trust.push('certificate signed with SHA-1');
  if (trust.length > 0) return { grade: 'T', score: 0, reasons: trust, not_tested: notTested };

  // Step 2: the three scores.
  if (offered.length === 0)
    return { grade: 'F', score: 0, reasons: ['no TLS version could be negotiated'], not_tested: notTested };
  const protocolScores = offered.map((p) => PROTOCOL_SCORE[p]);
  const protocol = (Math.max(...protocolScores) + Math.min(...protocolScores)) / 2;
  const certKey = c.keyType === 'EC' ? ecKeyScore(c.keyBits) : rsaKeyScore(c.keyBits);
  const ephemeral = f.ephemeral
    ? f.ephemeral.type === 'ECDH'
      ? ecKeyScore(f.ephemeral.bits)
      : rsaKeyScore(f.ephemeral.bits)
    : certKey;
  const keyExchange = Math.min(certKey, ephemeral);
  const bits = f.suites.map((s) => s.bits);
  const cipher = bits.length > 0 ? (cipherScore(Math.max(...bits)) + cipherScore(Math.min(...bits))) / 2 : 0;
  const score = Math.round(0.3 * protocol + 0.3 * keyExchange + 0.4 * cipher);
  let grade = letterOf(score);
  if (protocol === 0 || keyExchange === 0 || cipher === 0) grade = 'F';

  // Step 3: caps (rule layer); the grade is the worse of the score's letter and every cap.
  const caps: TlsLetter[] = [];
  const capAt = (letter: TlsLetter, reason: string) => {
    caps.push(letter);
    reasons.push(reason);
  };
  if (sig.includes('md5')) capAt('F', 'certificate signed with MD5');
  if (c.keyType === 'RSA' && c.keyBits < 1024) capAt('F', `RSA key of ${c.keyBits} bits`);
  else if (c.keyType === 'RSA' && c.keyBits < 2048) capAt('B', `RSA key of ${c.keyBits} bits (below 2048)`);
  if (f.protocols['TLSv1.2'] !== true && f.protocols['TLSv1.3'] !== true) capAt('C', 'TLS 1.2 is not supported');
  if (f.protocols.TLSv1 === true || f.protocols['TLSv1.1'] === true) capAt('B', 'TLS 1.0 or TLS 1.1 is offered');
  if (f.suites.length > 0 && !f.suites.some((s) => s.forwardSecrecy)) capAt('B', 'no forward secrecy');
  if (f.suites.length > 0 && !f.suites.some((s) => s.aead)) capAt('B', 'no AEAD cipher suite');
  if (f.suites.some((s) => s.bits > 0 && s.bits < 112)) capAt('F', 'a cipher below 112 bits is accepted');
  // Without long HSTS the best is A (SSL Labs gives A+ only with HSTS of 180 days or more).
  const hstsShort = f.hstsMaxAge === null || f.hstsMaxAge < HSTS_A_PLUS_SECONDS;
  if (hstsShort)
    reasons.push(
      f.hstsMaxAge === null ? 'no Strict-Transport-Security header' : `HSTS max-age ${f.hstsMaxAge}s is under 180 days`,
    );
  for (const cap of caps) grade = worse(grade, cap);

  // A+ / A-: an A without caps; warnings make it A-, long HSTS and no warnings A+.
  const warnings: string[] = [];
  if (f.suites.some((s) => !s.aead) && f.suites.some((s) => s.aead))
    warnings.push('non-AEAD (CBC) suites are also accepted');
  if (f.ephemeral?.type === 'DH' && f.ephemeral.bits < 2048) warnings.push(`DH parameters of ${f.ephemeral.bits} bits`);
  if (grade === 'A' && caps.length === 0) grade = warnings.length > 0 ? 'A-' : hstsShort ? 'A' : 'A+';
  reasons.push(...warnings);
  if (reasons.length === 0) reasons.push('TLS 1.2+ only, forward secrecy, AEAD suites, strong key and long HSTS');
  return { grade, score, reasons, not_tested: notTested };
}
