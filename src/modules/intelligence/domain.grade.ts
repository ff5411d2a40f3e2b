import { TLS_LETTERS, type GradeResult, type TlsLetter } from './tls.grade.ts';

/**
 * The domain security grade: reference §2.4's rubric (internet.nl-style categories, each a percentage of its
 * own maximum, averaged equally, mapped with Mozilla Observatory's bands). A category whose facts could not
 * be measured is left out and listed in `not_tested`.
 */
export interface DomainFacts {
  /** The `v=spf1` TXT record of the domain; null = none; undefined = not measured. */
  spf?: string | null;
  /** The `v=DMARC1` TXT record at `_dmarc.`; null = none. */
  dmarc?: string | null;
  /** Signed zone with a DS at the parent / not signed or not anchored / DS without keys or signatures. */
  dnssec?: 'secure' | 'insecure' | 'bogus' | null;
  /** What was seen, for the reasons (dnssec.measure.ts). */
  dnssecDetail?: string;
  /** CAA records as "flags tag value"; empty = none. */
  caa?: string[] | null;
  /** `_mta-sts` TXT present, and the policy's mode when it could be fetched. */
  mtaSts?: { record: boolean; mode: 'enforce' | 'testing' | 'none' | null } | null;
  /** `_smtp._tls` TXT with a rua. */
  tlsRpt?: boolean | null;
  /** Response headers of the HTTPS page (lower-case names). */
  headers?: Record<string, string> | null;
  /** Whether http:// redirects to https:// on the same host. */
  httpsRedirect?: boolean | null;
  tlsGrade?: TlsLetter | null;
}

export const DOMAIN_LETTERS = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'F'] as const;
export type DomainLetter = (typeof DOMAIN_LETTERS)[number];

const BANDS: ReadonlyArray<[number, DomainLetter]> = [
  [95, 'A+'],
  [90, 'A'],
  [85, 'A-'],
  [80, 'B+'],
  [70, 'B'],
  [65, 'B-'],
  [60, 'C+'],
  [50, 'C'],
  [45, 'C-'],
  [40, 'D+'],
  [30, 'D'],
  [25, 'D-'],
];

export function domainLetterOf(percent: number): DomainLetter {
  for (const [min, letter] of BANDS) if (percent >= min) return letter;
  return 'F';
}

interface Category {
  name: string;
  earned: number;
  max: number;
}

function hstsMaxAge(value: string | undefined): number | null {
  const m = value ? /max-age\s*=\s*"?(\d+)/i.exec(value) : null;
  return m ? Number(m[1]) : null;
}

/** SPF policy points (reference: -all 10, ~all 8, ?all/+all/none 2; more than 10 DNS lookups 0). */
function spfPolicyPoints(spf: string): [number, string] {
  const lookups = (spf.match(/\b(include:|a\b|a:|mx\b|mx:|ptr\b|ptr:|exists:|redirect=)/gi) ?? []).length;
  if (lookups > 10) return [0, `SPF needs ${lookups} DNS lookups (over RFC 7208's 10)`];
  if (/\s-all\b/i.test(spf)) return [10, 'SPF ends in -all'];
  if (/\s~all\b/i.test(spf)) return [8, 'SPF ends in ~all (soft fail)'];
  return [2, 'SPF does not end in -all or ~all'];
}

function dmarcPolicyPoints(dmarc: string): [number, string] {
  const p = /\bp\s*=\s*(\w+)/i.exec(dmarc)?.[1]?.toLowerCase();
  const pct = Number(/\bpct\s*=\s*(\d+)/i.exec(dmarc)?.[1] ?? 100);
  let points = p === 'reject' ? 10 : p === 'quarantine' ? 7 : 2;
  const parts = [`DMARC policy ${p ?? 'missing'}`];
  if (pct < 100) {
    points = Math.max(0, points - 3);
    parts.push(`applied to ${pct} % of mail`);
  }
  return [points, parts.join(', ')];
}

/** Observatory-lite over the headers a probe sees (reference §2.1): 100 minus penalties, capped at 100. */
export function headerScore(headers: Readonly<Record<string, string>>): [number, string[]] {
  let score = 100;
  const notes: string[] = [];
  const csp = headers['content-security-policy'];
  if (!csp) {
    score -= 25;
    notes.push('no Content-Security-Policy (−25)');
  } else if (/'unsafe-(inline|eval)'/.test(csp)) {
    score -= 10;
    notes.push('Content-Security-Policy allows unsafe-inline/unsafe-eval (−10)');
  }
  if ((headers['x-content-type-options'] ?? '').toLowerCase() !== 'nosniff') {
    score -= 5;
    notes.push('no X-Content-Type-Options: nosniff (−5)');
  }
  if (!headers['x-frame-options'] && !/frame-ancestors/i.test(csp ?? '')) {
    score -= 20;
    notes.push('no X-Frame-Options or frame-ancestors (−20)');
  }
  const referrer = (headers['referrer-policy'] ?? '').toLowerCase();
  if (referrer === 'unsafe-url' || referrer === 'no-referrer-when-downgrade') {
    score -= 5;
    notes.push(`Referrer-Policy ${referrer} (−5)`);
  }
  const hsts = hstsMaxAge(headers['strict-transport-security']);
  if (hsts === null) {
    score -= 20;
    notes.push('no Strict-Transport-Security (−20)');
  } else if (hsts < 15_768_000) {
    score -= 10;
    notes.push('HSTS shorter than 6 months (−10)');
  }
  return [Math.max(0, score), notes];
}

const TLS_POINTS: Partial<Record<TlsLetter, number>> = { 'A+': 10, A: 9, 'A-': 8, B: 6, C: 4, D: 2, E: 2 };

export function gradeDomain(f: DomainFacts): GradeResult<DomainLetter> {
  const categories: Category[] = [];
  const reasons: string[] = [];
  const notTested: string[] = [];

  // DNS: DNSSEC and CAA (the NS-diversity check needs ASN data and is not scored).
  const dns: Category = { name: 'DNS', earned: 0, max: 0 };
  if (f.dnssec === undefined || f.dnssec === null) notTested.push('DNSSEC');
  else {
    dns.max += 10;
    dns.earned += f.dnssec === 'secure' ? 10 : f.dnssec === 'insecure' ? 2 : 0;
    reasons.push(f.dnssecDetail ?? `DNSSEC ${f.dnssec}`);
  }
  if (f.caa === undefined || f.caa === null) notTested.push('CAA');
  else {
    dns.max += 10;
    const hasIssue = f.caa.some((r) => /\bissue(wild)?\b/i.test(r));
    dns.earned += hasIssue ? 10 : 0;
    reasons.push(hasIssue ? 'CAA restricts certificate issuers' : 'no CAA issue record');
  }
  notTested.push('name servers in two networks (needs an ASN database)');
  if (dns.max > 0) categories.push(dns);

  // Email authentication.
  const mail: Category = { name: 'Email authentication', earned: 0, max: 0 };
  if (f.spf === undefined) notTested.push('SPF');
  else {
    mail.max += 20;
    if (f.spf === null) reasons.push('no SPF record');
    else {
      const [points, why] = spfPolicyPoints(f.spf);
      mail.earned += 10 + points;
      reasons.push(why);
    }
  }
  if (f.dmarc === undefined) notTested.push('DMARC');
  else {
    mail.max += 20;
    if (f.dmarc === null) reasons.push('no DMARC record');
    else {
      const [points, why] = dmarcPolicyPoints(f.dmarc);
      mail.earned += 10 + points;
      reasons.push(why);
    }
  }
  if (mail.max > 0) categories.push(mail);

  // Mail transport.
  const transport: Category = { name: 'Mail transport', earned: 0, max: 0 };
  if (f.mtaSts === undefined || f.mtaSts === null) notTested.push('MTA-STS');
  else {
    transport.max += 10;
    const mode = f.mtaSts.record ? f.mtaSts.mode : null;
    transport.earned += mode === 'enforce' ? 10 : mode === 'testing' ? 5 : 0;
    reasons.push(f.mtaSts.record ? `MTA-STS ${mode ?? 'policy unreadable'}` : 'no MTA-STS');
  }
  if (f.tlsRpt === undefined || f.tlsRpt === null) notTested.push('TLS-RPT');
  else {
    transport.max += 10;
    transport.earned += f.tlsRpt ? 10 : 0;
    reasons.push(f.tlsRpt ? 'TLS-RPT reporting address published' : 'no TLS-RPT');
  }
  if (transport.max > 0) categories.push(transport);

  // Web.
  const web: Category = { name: 'Web', earned: 0, max: 0 };
  if (f.httpsRedirect !== undefined && f.httpsRedirect !== null) {
    web.max += 10;
    web.earned += f.httpsRedirect ? 10 : 0;
    if (!f.httpsRedirect) reasons.push('http:// does not redirect to https://');
  } else notTested.push('http → https redirect');
  if (f.headers) {
    const hsts = f.headers['strict-transport-security'];
    const maxAge = hstsMaxAge(hsts);
    web.max += 25; // HSTS 10, preload eligibility 5 (list membership is not tested), headers 10
    web.earned += maxAge === null ? 0 : maxAge >= 31_536_000 ? 10 : maxAge >= 15_768_000 ? 6 : 2;
    const preloadable =
      maxAge !== null && maxAge >= 31_536_000 && /includesubdomains/i.test(hsts ?? '') && /preload/i.test(hsts ?? '');
    web.earned += preloadable ? 5 : 0;
    notTested.push('HSTS preload list membership');
    const [observatory, notes] = headerScore(f.headers);
    web.earned += Math.min(observatory, 100) / 10;
    reasons.push(
      maxAge === null ? 'no HSTS' : `HSTS max-age ${maxAge}s${preloadable ? ', preload-eligible' : ''}`,
      ...notes,
    );
  } else notTested.push('HTTP security headers');
  if (web.max > 0) categories.push(web);

  if (f.tlsGrade) {
    categories.push({ name: 'TLS', earned: TLS_POINTS[f.tlsGrade] ?? 0, max: 10 });
    reasons.push(`TLS grade ${f.tlsGrade}`);
  } else notTested.push('TLS grade');

  if (categories.length === 0)
    return { grade: 'F', score: 0, reasons: ['nothing could be measured'], not_tested: notTested };
  const percent = categories.reduce((sum, c) => sum + (100 * c.earned) / c.max, 0) / categories.length;
  const score = Math.round(percent * 10) / 10;
  return { grade: domainLetterOf(score), score, reasons, not_tested: notTested };
}

/** True when `to` is a worse grade than `from` (TLS or domain letters). */
export function isDowngrade(from: string, to: string): boolean {
  const order =
    (TLS_LETTERS as readonly string[]).includes(from) && (TLS_LETTERS as readonly string[]).includes(to)
      ? (TLS_LETTERS as readonly string[])
      : (DOMAIN_LETTERS as readonly string[]);
  return order.indexOf(to) > order.indexOf(from);
}
