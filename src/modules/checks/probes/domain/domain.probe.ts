/**
 * Domain probe: asks RDAP (RFC 9083) for the target domain's registration and judges its expiry, like the tls probe
 * judges a certificate: expired (or in redemption / pending delete) is down (`domain_expired`); not registered (RDAP
 * 404) is down (`domain_not_found`); expiring within `config.alert_days_before_expiry` (default 30) stays up and
 * raises the `cert_expiring` event with `data.kind: "domain"` (the spec's event set has no other expiry event; the
 * engine sends it at most once a day per monitor). A registry that publishes no expiry leaves the monitor up with
 * `expires_at: null`.
 *
 * Where RDAP is asked: `config.rdap_base_url`, else the IANA DNS bootstrap registry (RFC 9224), fetched on first use
 * and kept for a day per registry (never shipped: it changes as registries move). Every request goes through the
 * outbound connector: resolved once, vetted against the private-target guard, connected to the vetted address.
 */
import { createOutboundConnector, systemResolver, type OutboundConnector } from '../../../../platform/net/index.ts';
import type { CertExpiringEvent, Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { classifyError, num, ProbeFailure, round } from '../probe.net.ts';
import { runProbeWithin, type Outcome, type ProbeRun } from '../probe.run.ts';
import { parseBootstrap, parseRdapDomain, type DomainRegistration } from './rdap.parse.ts';

export const IANA_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';
export const DOMAIN_DEFAULT_ALERT_DAYS = 30;
const BOOTSTRAP_TTL_MS = 86_400_000;
/** After a failed bootstrap fetch, checks fail fast for this long instead of each fetching again. */
const BOOTSTRAP_RETRY_MS = 300_000;
const MAX_RDAP_BYTES = 1_048_576;
const DAY_MS = 86_400_000;
const ACCEPT = 'application/rdap+json, application/json;q=0.9';
/** RFC 9083 §10.2.2 statuses of a domain whose registration has lapsed (it still answers, but is going away). */
const LAPSED = ['redemption period', 'pending delete', 'pending restore'];

export interface DomainProbeOptions {
  /** Where the bootstrap registry is fetched from (tests point it at a local server). */
  bootstrapUrl?: string;
}

interface Bootstrap {
  byTld: Map<string, string> | null;
  error: string | null;
  at: number;
}

export function createDomainProbe(options: DomainProbeOptions = {}): Probe {
  const bootstrapUrl = options.bootstrapUrl ?? IANA_RDAP_BOOTSTRAP_URL;
  let bootstrap: Bootstrap | null = null;
  let loading: Promise<Bootstrap> | null = null;

  async function loadBootstrap(connector: OutboundConnector, now: number, signal: AbortSignal): Promise<Bootstrap> {
    try {
      const res = await connector.fetch(bootstrapUrl, { headers: { accept: 'application/json' }, signal });
      if (!res.ok) {
        await res.body?.cancel();
        throw new Error(`HTTP ${res.status}`);
      }
      return { byTld: parseBootstrap(JSON.parse(await readCapped(res, 4 * MAX_RDAP_BYTES))), error: null, at: now };
    } catch (err) {
      return { byTld: null, error: classifyError(err).message || String(err), at: now };
    }
  }

  /** The RDAP base URL of the domain's TLD (longest matching suffix); fetched once for every check that waits. */
  async function baseUrlFor(domain: string, connector: OutboundConnector, now: number, run: ProbeRun) {
    const fresh =
      bootstrap && now - bootstrap.at < (bootstrap.byTld ? BOOTSTRAP_TTL_MS : BOOTSTRAP_RETRY_MS) ? bootstrap : null;
    let current = fresh;
    if (!current) {
      loading ??= loadBootstrap(connector, now, AbortSignal.timeout(15_000)).finally(() => (loading = null));
      current = bootstrap = await run.race(loading);
    }
    if (!current.byTld) {
      throw new ProbeFailure(
        'protocol_error',
        `the RDAP bootstrap registry ${bootstrapUrl} could not be fetched (${current.error ?? 'unknown error'}); ` +
          'set config.rdap_base_url to ask an RDAP server directly',
      );
    }
    const labels = domain.split('.');
    for (let i = 1; i < labels.length; i++) {
      const url = current.byTld.get(labels.slice(i).join('.'));
      if (url) return url;
    }
    throw new ProbeFailure(
      'invalid_target',
      `no RDAP service is registered for .${labels.at(-1) ?? ''} (IANA bootstrap); set config.rdap_base_url`,
    );
  }

  return function domainProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const cfg = target.config;
    const timeoutMs = num(cfg.timeout_ms, 10_000);
    const alertDays =
      typeof cfg.alert_days_before_expiry === 'number' ? cfg.alert_days_before_expiry : DOMAIN_DEFAULT_ALERT_DAYS;
    const domain = target.target.trim().toLowerCase().replace(/\.$/, '');
    const timeoutMessage = `no RDAP answer within ${timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs, timeoutMessage }, async (run) => {
      if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))
        throw new ProbeFailure('invalid_target', `not a domain name: ${JSON.stringify(target.target)}`);
      const controller = new AbortController();
      run.onAbort((reason) => controller.abort(reason));
      const connector = createOutboundConnector({
        allowPrivateTargets: ctx.allowPrivateTargets,
        resolver: ctx.resolver ?? systemResolver,
      });
      const configured = typeof cfg.rdap_base_url === 'string' && cfg.rdap_base_url ? cfg.rdap_base_url : null;
      const base = configured ?? (await baseUrlFor(domain, connector, ctx.now(), run));
      const rdap_url = `${base.replace(/\/+$/, '')}/domain/${encodeURIComponent(domain)}`;
      run.partial.details = { domain, rdap_url };
      let res: Response;
      try {
        res = await run.race(
          connector.fetch(rdap_url, { headers: { accept: ACCEPT }, signal: controller.signal, maxRedirects: 3 }),
        );
      } catch (err) {
        throw rootCause(err);
      }
      run.timings.ttfb_ms = run.elapsed();
      run.partial.http_status = res.status;
      if (res.status === 404) {
        await res.body?.cancel();
        throw new ProbeFailure('domain_not_found', `${domain} is not registered (RDAP ${rdap_url} answered 404)`);
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new ProbeFailure('http_status', `RDAP ${rdap_url} answered HTTP ${res.status}`);
      }
      const text = await run.race(readCapped(res, MAX_RDAP_BYTES));
      let registration: DomainRegistration;
      try {
        registration = parseRdapDomain(JSON.parse(text));
      } catch (err) {
        throw new ProbeFailure('protocol_error', `RDAP ${rdap_url}: ${(err as Error).message}`);
      }
      run.timings.download_ms = round(run.elapsed() - run.timings.ttfb_ms);
      return run.observation({
        ...judge(domain, registration, ctx.now(), alertDays, rdap_url),
        http_status: res.status,
      });
    });
  };
}

/** fetch wraps what went wrong ("fetch failed" → undici's "fetch failed" → ECONNREFUSED): the innermost error. */
function rootCause(err: unknown): unknown {
  let e = err;
  for (let i = 0; i < 5 && e instanceof Error && !(e as NodeJS.ErrnoException).code && e.cause instanceof Error; i++)
    e = e.cause;
  return e;
}

async function readCapped(res: Response, cap: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > cap) {
    await res.body?.cancel();
    throw new ProbeFailure('protocol_error', `the RDAP answer is larger than ${cap} bytes`);
  }
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > cap) throw new ProbeFailure('protocol_error', `the RDAP answer is larger than ${cap} bytes`);
  return body.toString('utf8');
}

function judge(domain: string, r: DomainRegistration, now: number, alertDays: number, rdap_url: string): Outcome {
  const expiresAt = r.expires_at === null ? null : Date.parse(r.expires_at);
  // Rounded up like the tls probe's countdown: "expires within alert_days_before_expiry days" exactly.
  const days_to_expiry = expiresAt === null ? null : Math.ceil((expiresAt - now) / DAY_MS);
  const details = { domain, rdap_url, ...r, days_to_expiry };
  const lapsed = r.statuses.find((s) => LAPSED.includes(s.toLowerCase()));
  let error: Outcome['error'] = null;
  if (expiresAt !== null && expiresAt <= now)
    error = { code: 'domain_expired', message: `${domain} expired on ${r.expires_at ?? ''}` };
  else if (lapsed) error = { code: 'domain_expired', message: `${domain} is in "${lapsed}" status at the registry` };
  const events: CertExpiringEvent[] = [];
  if (!error && days_to_expiry !== null && days_to_expiry <= alertDays) {
    events.push({
      type: 'cert_expiring',
      data: { kind: 'domain', domain, days_to_expiry, expires_at: r.expires_at, registrar: r.registrar },
    });
  }
  return { error, details, events };
}
