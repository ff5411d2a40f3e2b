/**
 * The `x-url` keyword: a string that parses as a URL with one of the given schemes. What a format cannot say is
 * part of it: plain http for loopback hosts only (local development and test fakes), no credentials in the URL.
 */
export interface UrlRule {
  /** Allowed schemes with their colon, e.g. `['https:']`. */
  protocols: string[];
  /** `http:` is also allowed for localhost, 127.0.0.1 and [::1]. */
  loopbackHttp?: boolean;
  /** A user name or password in the URL is refused with its own issue. */
  noCredentials?: boolean;
  /** The issue when the value is not such a URL (default: "must be a URL with scheme …"). */
  issue?: string;
  maxLength?: number;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The issue of `value` under `rule`, or null when it is fine. */
export function urlIssue(value: unknown, rule: UrlRule): string | null {
  const wrong = rule.issue ?? `must be a URL with scheme ${rule.protocols.map((p) => p.replace(':', '')).join(' or ')}`;
  if (typeof value !== 'string' || value.length > (rule.maxLength ?? 2048)) return wrong;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return wrong;
  }
  if (rule.noCredentials && (url.username || url.password)) return 'must not contain credentials';
  if (rule.protocols.includes(url.protocol)) return null;
  if (rule.loopbackHttp && url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return null;
  return wrong;
}
