/** Reading an RDAP domain object (RFC 9083 §5.3) and the IANA DNS bootstrap registry (RFC 9224). */

export interface DomainRegistration {
  /** ISO timestamps, null when the registry does not publish them (several ccTLDs publish no expiry). */
  expires_at: string | null;
  registered_at: string | null;
  registrar: string | null;
  /** Lower-case, without the trailing dot, sorted. */
  nameservers: string[];
  /** RFC 9083 §10.2.2 status values, e.g. "active", "client transfer prohibited", "redemption period". */
  statuses: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function eventDate(events: unknown[], action: string): string | null {
  for (const e of events) {
    if (!isObject(e) || typeof e.eventAction !== 'string' || e.eventAction.toLowerCase() !== action) continue;
    const at = typeof e.eventDate === 'string' ? Date.parse(e.eventDate) : NaN;
    if (Number.isFinite(at)) return new Date(at).toISOString();
  }
  return null;
}

/** The `fn` of a jCard (RFC 7095): `["vcard", [["fn", {}, "text", "Name"], …]]`. */
function vcardName(vcard: unknown): string | null {
  if (!Array.isArray(vcard) || !Array.isArray(vcard[1])) return null;
  for (const prop of vcard[1] as unknown[]) {
    if (Array.isArray(prop) && prop[0] === 'fn' && typeof prop[3] === 'string' && prop[3].trim()) return prop[3].trim();
  }
  return null;
}

function registrarOf(entities: unknown[]): string | null {
  for (const e of entities) {
    if (!isObject(e) || !Array.isArray(e.roles) || !e.roles.includes('registrar')) continue;
    return vcardName(e.vcardArray) ?? (typeof e.handle === 'string' ? e.handle : null);
  }
  return null;
}

/** Throws a TypeError naming what is missing when the document is not an RDAP domain object. */
export function parseRdapDomain(doc: unknown): DomainRegistration {
  if (!isObject(doc)) throw new TypeError('the RDAP answer is not a JSON object');
  if (doc.objectClassName !== undefined && doc.objectClassName !== 'domain')
    throw new TypeError(`the RDAP answer is a ${JSON.stringify(doc.objectClassName)} object, not a domain`);
  const events = Array.isArray(doc.events) ? doc.events : [];
  const entities = Array.isArray(doc.entities) ? doc.entities : [];
  const nameservers = (Array.isArray(doc.nameservers) ? doc.nameservers : [])
    .map((n) => (isObject(n) && typeof n.ldhName === 'string' ? n.ldhName.toLowerCase().replace(/\.$/, '') : null))
    .filter((n): n is string => n !== null && n !== '')
    .sort();
  return {
    // "registrar expiration" (RFC 8056 registries' event for the registrar's own term) only when the registry has
    // no "expiration" of its own.
    expires_at: eventDate(events, 'expiration') ?? eventDate(events, 'registrar expiration'),
    registered_at: eventDate(events, 'registration'),
    registrar: registrarOf(entities),
    nameservers: [...new Set(nameservers)],
    statuses: (Array.isArray(doc.status) ? doc.status : []).filter((s): s is string => typeof s === 'string'),
  };
}

/** The IANA bootstrap file (`https://data.iana.org/rdap/dns.json`): TLD (lower case) → RDAP base URL. */
export function parseBootstrap(doc: unknown): Map<string, string> {
  if (!isObject(doc) || !Array.isArray(doc.services)) throw new TypeError('not an RDAP bootstrap registry');
  const byTld = new Map<string, string>();
  for (const service of doc.services) {
    if (!Array.isArray(service) || !Array.isArray(service[0]) || !Array.isArray(service[1])) continue;
    const urls = (service[1] as unknown[]).filter((u): u is string => typeof u === 'string');
    // RFC 9224 §3: prefer https when a service lists several.
    const url = urls.find((u) => u.startsWith('https://')) ?? urls[0];
    if (!url) continue;
    for (const tld of service[0] as unknown[]) if (typeof tld === 'string') byTld.set(tld.toLowerCase(), url);
  }
  return byTld;
}
