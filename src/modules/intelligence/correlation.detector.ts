/**
 * Shared-dependency correlation (reference §6, proposal grounded on Alertmanager's 5-minute group interval and
 * PagerDuty's 300 s window): monitors that fail or turn anomalous within the window and share an attribute
 * value are one correlation when at least two of them share it and they are at least half of the monitors
 * that have it.
 */

export const CORRELATION_ATTRIBUTES = ['address', 'certificate_issuer', 'cdn', 'dns_provider', 'region'] as const;
/** Most specific first: a shared address explains more than a shared region. */
export type CorrelationAttribute = (typeof CORRELATION_ATTRIBUTES)[number];

export interface MonitorAttributes {
  addresses: readonly string[];
  certificateIssuer: string | null;
  cdn: string | null;
  dnsProvider: string | null;
  regions: readonly string[];
}

export interface CorrelationSignal {
  monitorId: string;
  /** The region whose checks failed or turned anomalous. */
  regionCode: string;
  at: number;
  reason: 'down' | 'anomaly';
}

export interface CorrelationSettings {
  windowMs: number;
  minSupport: number;
  minCoverage: number;
}

export const DEFAULT_CORRELATION_SETTINGS: CorrelationSettings = {
  windowMs: 5 * 60_000,
  minSupport: 2,
  minCoverage: 0.5,
};

export interface Correlation {
  attribute: CorrelationAttribute;
  value: string;
  monitorIds: string[];
  /** Monitors having the value that failed / all monitors having it. */
  coverage: number;
  from: number;
  to: number;
  summary: string;
}

function valuesOf(a: MonitorAttributes, attribute: CorrelationAttribute): readonly string[] {
  switch (attribute) {
    case 'address':
      return a.addresses;
    case 'certificate_issuer':
      return a.certificateIssuer ? [a.certificateIssuer] : [];
    case 'cdn':
      return a.cdn ? [a.cdn] : [];
    case 'dns_provider':
      return a.dnsProvider ? [a.dnsProvider] : [];
    case 'region':
      return a.regions;
  }
}

const LABEL: Record<CorrelationAttribute, string> = {
  address: 'address',
  certificate_issuer: 'certificate issuer',
  cdn: 'CDN',
  dns_provider: 'DNS provider',
  region: 'probe region',
};

/**
 * The correlations among the signals of the window ending at `now`. `population` holds the attributes of every
 * monitor of the organization (coverage is measured against it). A region correlation means the failures came
 * from one probe region: a probe or network problem more likely than the targets.
 */
export function findCorrelations(
  signals: readonly CorrelationSignal[],
  population: ReadonlyMap<string, MonitorAttributes>,
  now: number,
  s: CorrelationSettings = DEFAULT_CORRELATION_SETTINGS,
): Correlation[] {
  const recent = signals.filter((x) => x.at > now - s.windowMs && x.at <= now);
  const out: Correlation[] = [];
  const claimed = new Set<string>();
  for (const attribute of CORRELATION_ATTRIBUTES) {
    const failingBy = new Map<string, Set<string>>();
    const timesBy = new Map<string, number[]>();
    for (const sig of recent) {
      const attrs = population.get(sig.monitorId);
      if (!attrs) continue;
      // A probe region explains a failure only for a monitor checked from several regions that fails from this one
      // alone (the others still succeed): otherwise every single-region organization would "correlate" by region.
      if (
        attribute === 'region' &&
        (attrs.regions.length < 2 ||
          recent.some((o) => o.monitorId === sig.monitorId && o.regionCode !== sig.regionCode))
      )
        continue;
      const values = attribute === 'region' ? [sig.regionCode] : valuesOf(attrs, attribute);
      for (const v of values) {
        if (!failingBy.has(v)) failingBy.set(v, new Set());
        failingBy.get(v)!.add(sig.monitorId);
        timesBy.set(v, [...(timesBy.get(v) ?? []), sig.at]);
      }
    }
    // How many monitors of the population have each value: counted once per attribute, and only when some value
    // has enough failing monitors to be judged (a count per value would walk the population for each of them).
    let havingBy: Map<string, number> | null = null;
    for (const [value, failing] of failingBy) {
      if (failing.size < s.minSupport) continue;
      havingBy ??= countValues(population, attribute);
      const having = havingBy.get(value) ?? 0;
      const coverage = having === 0 ? 0 : failing.size / having;
      if (coverage < s.minCoverage) continue;
      const ids = [...failing].sort();
      // A group already explained by a more specific attribute is not repeated for a broader one.
      const key = ids.join(',');
      if (claimed.has(key)) continue;
      claimed.add(key);
      const times = timesBy.get(value)!;
      out.push({
        attribute,
        value,
        monitorIds: ids,
        coverage: Math.round(coverage * 100) / 100,
        from: Math.min(...times),
        to: Math.max(...times),
        summary:
          `${ids.length} of ${having} monitors sharing ${LABEL[attribute]} ${value} failed or turned anomalous within ` +
          `${Math.round(s.windowMs / 60_000)} min` +
          (attribute === 'region' ? ' (seen from this probe region: likely a probe or network problem)' : '') +
          '.',
      });
    }
  }
  return out;
}

function countValues(
  population: ReadonlyMap<string, MonitorAttributes>,
  attribute: CorrelationAttribute,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const attrs of population.values())
    for (const v of new Set(valuesOf(attrs, attribute))) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}
