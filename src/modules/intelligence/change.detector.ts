import type { Finding, IntelligenceCategory, IntelligenceSeverity } from './intelligence.types.ts';
import { SECURITY_HEADERS, type CertificateFacts, type ObservationSnapshot } from './observation.normalise.ts';

export interface ChangeSettings {
  /** A new value must be seen this many observations in a row (reference §5.3: 2 consecutive checks). */
  confirmations: number;
  /** Values seen within this long are not new (round-robin answers, rotating certificates or backends). */
  recentMs: number;
}

export const DEFAULT_CHANGE_SETTINGS: ChangeSettings = { confirmations: 2, recentMs: 24 * 3_600_000 };

/** How long a list of seen values may grow per facet (oldest forgotten first). */
const MAX_SEEN = 64;

/**
 * One comparable fact of an observation. `rotating` facets are sets whose members come and go by design
 * (A records, addresses): only a member not seen recently is new. Other facets compare whole values, and a
 * whole value seen recently (two backends answering in turn) is not new either.
 */
interface Facet {
  key: string;
  category: IntelligenceCategory;
  label: string;
  values: string[];
  rotating: boolean;
  detail: Record<string, unknown> | null;
}

interface FacetState {
  stable: string[];
  detail: Record<string, unknown> | null;
  /** Member (rotating) or whole value (others) → when last seen. */
  seen: Record<string, number>;
  pending: { values: string[]; detail: Record<string, unknown> | null; count: number; since: number } | null;
}

/** JSON-safe state of a monitor+region's change watch. */
export interface ChangeState {
  facets: Record<string, FacetState>;
  /** Once headers were observed, a header that appears later is an addition, not a first sighting. */
  headersSeen?: boolean;
}

export function newChangeState(): ChangeState {
  return { facets: {} };
}

function facetsOf(snap: ObservationSnapshot): Facet[] {
  const out: Facet[] = [];
  for (const [type, answers] of Object.entries(snap.dns ?? {})) {
    out.push({
      key: `dns:${type}`,
      category: 'dns',
      label: `DNS ${type} records`,
      values: answers,
      rotating: type === 'A' || type === 'AAAA',
      detail: null,
    });
  }
  if (snap.tls) {
    const { fingerprint_sha256, protocol } = snap.tls;
    out.push({
      key: 'tls:certificate',
      category: 'tls',
      label: 'Certificate',
      values: [fingerprint_sha256],
      rotating: false,
      detail: { ...snap.tls },
    });
    if (protocol)
      out.push({
        key: 'tls:protocol',
        category: 'tls',
        label: 'TLS protocol',
        values: [protocol],
        rotating: false,
        detail: null,
      });
  }
  if (snap.headers) {
    for (const [name, value] of Object.entries(snap.headers)) {
      out.push({
        key: `headers:${name}`,
        category: 'headers',
        label: `Header ${name}`,
        values: [value],
        rotating: false,
        detail: null,
      });
    }
  }
  if (snap.content)
    out.push({
      key: 'content',
      category: 'content',
      label: 'Content',
      values: [snap.content],
      rotating: false,
      detail: null,
    });
  if (snap.registrar)
    out.push({
      key: 'infrastructure:registrar',
      category: 'infrastructure',
      label: 'Registrar',
      values: [snap.registrar],
      rotating: false,
      detail: null,
    });
  const infra = snap.infrastructure;
  if (infra) {
    if (infra.addresses.length > 0)
      out.push({
        key: 'infrastructure:addresses',
        category: 'infrastructure',
        label: 'Addresses',
        values: infra.addresses,
        rotating: true,
        detail: null,
      });
    if (snap.headers !== undefined || infra.cdn)
      out.push({
        key: 'infrastructure:cdn',
        category: 'infrastructure',
        label: 'CDN',
        values: infra.cdn ? [infra.cdn] : [],
        rotating: false,
        detail: null,
      });
    if (infra.dns_provider)
      out.push({
        key: 'infrastructure:dns_provider',
        category: 'infrastructure',
        label: 'DNS provider',
        values: [infra.dns_provider],
        rotating: false,
        detail: null,
      });
  }
  return out;
}

/** Headers that disappeared are facets too: the header now has no value. */
function withRemovedHeaders(state: ChangeState, snap: ObservationSnapshot, facets: Facet[]): Facet[] {
  if (!snap.headers) return facets;
  for (const key of Object.keys(state.facets)) {
    if (!key.startsWith('headers:')) continue;
    const name = key.slice('headers:'.length);
    if (!(name in snap.headers))
      facets.push({ key, category: 'headers', label: `Header ${name}`, values: [], rotating: false, detail: null });
  }
  return facets;
}

const wholeKey = (values: readonly string[]) => values.join('\n');

function isNew(f: Facet, st: FacetState): boolean {
  if (f.rotating) return f.values.some((v) => st.seen[v] === undefined);
  const key = wholeKey(f.values);
  return key !== wholeKey(st.stable) && st.seen[key] === undefined;
}

function remember(f: { values: string[]; rotating: boolean }, st: FacetState, at: number): void {
  if (f.rotating) for (const v of f.values) st.seen[v] = at;
  else st.seen[wholeKey(f.values)] = at;
}

function forgetOld(st: FacetState, at: number, s: ChangeSettings): void {
  // Most checks have nothing to forget: look before rebuilding the map.
  let count = 0;
  let stale = false;
  for (const key in st.seen) {
    count++;
    if (st.seen[key]! < at - s.recentMs) stale = true;
  }
  if (!stale && count <= MAX_SEEN) return;
  const entries = Object.entries(st.seen).filter(([, t]) => t >= at - s.recentMs);
  entries.sort((a, b) => b[1] - a[1]);
  st.seen = Object.fromEntries(entries.slice(0, MAX_SEEN));
}

/**
 * Compares an observation with what was seen before and returns the confirmed changes as `significant_change`
 * findings. The first observation of a facet only sets its baseline.
 */
export function observeSnapshot(
  state: ChangeState,
  at: number,
  snap: ObservationSnapshot,
  s: ChangeSettings = DEFAULT_CHANGE_SETTINGS,
): Finding[] {
  const findings: Finding[] = [];
  for (const f of withRemovedHeaders(state, snap, facetsOf(snap))) {
    let st = state.facets[f.key];
    if (!st && f.category === 'headers' && state.headersSeen) {
      st = { stable: [], detail: null, seen: {}, pending: null };
      state.facets[f.key] = st;
    }
    if (!st) {
      st = { stable: f.values, detail: f.detail, seen: {}, pending: null };
      remember(f, st, at);
      state.facets[f.key] = st;
      continue;
    }
    forgetOld(st, at, s);
    if (!isNew(f, st)) {
      // A rotating set went back to known members: the pending newcomer joined the rotation, learn it quietly.
      if (st.pending && f.rotating) remember({ values: st.pending.values, rotating: true }, st, at);
      st.pending = null;
      remember(f, st, at);
      continue;
    }
    if (st.pending && (f.rotating || wholeKey(st.pending.values) === wholeKey(f.values))) {
      st.pending.count++;
      if (f.rotating) st.pending.values = [...new Set([...st.pending.values, ...f.values])].sort();
      st.pending.detail = f.detail;
    } else st.pending = { values: f.values, detail: f.detail, count: 1, since: at };
    if (st.pending.count < s.confirmations) continue;
    const before = { values: st.stable, detail: st.detail };
    const after = { values: st.pending.values, detail: st.pending.detail };
    findings.push(describeChange(f, before, after, st.pending.since));
    st.stable = after.values;
    st.detail = after.detail;
    remember({ values: after.values, rotating: f.rotating }, st, at);
    st.pending = null;
    if (f.values.length === 0 && f.key.startsWith('headers:')) delete state.facets[f.key];
  }
  if (snap.headers) state.headersSeen = true;
  return findings;
}

interface Side {
  values: string[];
  detail: Record<string, unknown> | null;
}

function list(values: readonly string[]): string {
  if (values.length === 0) return '(none)';
  const shown = values.map((v) => (v.length > 120 ? `${v.slice(0, 119)}…` : v));
  return shown.length > 8 ? `${shown.slice(0, 8).join(', ')} and ${shown.length - 8} more` : shown.join(', ');
}

function severityOf(f: Facet, before: Side, after: Side): IntelligenceSeverity {
  switch (f.category) {
    case 'dns':
      return f.rotating ? 'info' : 'warning';
    case 'tls':
      return f.key === 'tls:certificate' && isRenewal(before, after) ? 'info' : 'warning';
    case 'headers':
      return SECURITY_HEADERS.has(f.key.slice('headers:'.length)) ? 'warning' : 'info';
    case 'infrastructure':
      return f.key === 'infrastructure:addresses' ? 'info' : 'warning';
    default:
      return 'info';
  }
}

function cert(side: Side): CertificateFacts | null {
  return side.detail as CertificateFacts | null;
}

/** Same issuer and same names: the certificate was renewed, not replaced (reference §5.3). */
function isRenewal(before: Side, after: Side): boolean {
  const a = cert(before);
  const b = cert(after);
  return !!a && !!b && a.issuer === b.issuer && wholeKey(a.san) === wholeKey(b.san);
}

function describeChange(f: Facet, before: Side, after: Side, since: number): Finding {
  let summary: string;
  if (f.key === 'tls:certificate') {
    const a = cert(before);
    const b = cert(after);
    if (a && b && isRenewal(before, after)) {
      summary = `Certificate renewed by ${b.issuer} for the same names; valid until ${a.not_after} → ${b.not_after}.`;
    } else if (a && b) {
      const parts: string[] = [];
      if (a.issuer !== b.issuer) parts.push(`issuer ${a.issuer} → ${b.issuer}`);
      if (wholeKey(a.san) !== wholeKey(b.san)) parts.push(`names ${list(a.san)} → ${list(b.san)}`);
      if (a.subject !== b.subject) parts.push(`subject ${a.subject} → ${b.subject}`);
      parts.push(`valid until ${a.not_after} → ${b.not_after}`);
      summary = `Certificate replaced: ${parts.join('; ')}.`;
    } else summary = `Certificate changed from ${list(before.values)} to ${list(after.values)}.`;
  } else if (f.key === 'content') {
    summary = `Content changed (normalised digest ${before.values[0]?.slice(0, 12) ?? '(none)'}… → ${after.values[0]?.slice(0, 12) ?? '(none)'}…).`;
  } else if (f.rotating) {
    const added = after.values.filter((v) => !before.values.includes(v));
    summary = `${f.label} changed from ${list(before.values)} to ${list(after.values)} (new: ${list(added)}).`;
  } else if (after.values.length === 0) {
    summary = `${f.label} removed (was ${list(before.values)}).`;
  } else if (before.values.length === 0) {
    summary = `${f.label} added: ${list(after.values)}.`;
  } else summary = `${f.label} changed from ${list(before.values)} to ${list(after.values)}.`;
  return {
    kind: 'significant_change',
    category: f.category,
    severity: severityOf(f, before, after),
    summary,
    before: { facet: f.key, values: before.values, ...(before.detail ? { detail: before.detail } : {}) },
    after: { facet: f.key, values: after.values, ...(after.detail ? { detail: after.detail } : {}) },
    at: since,
  };
}
