import { isIP } from 'node:net';
import { BackgroundLoop } from '../../platform/background-loop.ts';
import type { BackgroundRole } from '../../platform/background-role.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import type { OutboundConnector } from '../../platform/net/index.ts';
import type { Timers } from '../../platform/timers.ts';
import { gradeDomain } from './domain.grade.ts';
import type { IntelligenceService } from './intelligence.service.ts';
import { IntelligenceRepository } from './intelligence.repository.ts';
import { fetchHeaders, measureDomain, measureTls, type MeasureOptions } from './security.measure.ts';
import { gradeTls } from './tls.grade.ts';

/** The monitor fields grading needs (MonitorsService's Monitor has them). */
export interface GradedMonitor {
  id: string;
  organizationId: string;
  name: string;
  type: string;
  target: string;
  paused: boolean;
  config: Record<string, unknown>;
}

export interface SecurityGradesDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  intelligence: IntelligenceService;
  monitors: { findManyAnywhere(ids: readonly string[]): Promise<GradedMonitor[]> };
  /** How often each monitor is graded (default one day). */
  intervalMs: number;
  /** How often the role looks for monitors due (default one minute). */
  tickMs: number;
  /** The loop's timers (tests pass a fake); the system's by default. */
  timers?: Timers;
  timeoutMs: number;
  /**
   * The network policy's connector (`network.allow_private_targets`): each grading vets the graded host once, and
   * every handshake and request of it (the `mta-sts.` host's too) goes to a vetted address only.
   */
  connector: OutboundConnector;
  tlsCa?: string;
  /** DNS resolver (host:port) for the domain checks; the system's when absent. */
  resolver?: string;
}

/** The host and port a TLS grade is measured on: https:// monitors and tls monitors. */
export function tlsEndpointOf(m: Pick<GradedMonitor, 'type' | 'target'>): { host: string; port: number } | null {
  if (m.type !== 'http' && m.type !== 'tls') return null;
  if (/^https:\/\//i.test(m.target)) {
    const url = new URL(m.target);
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 443) };
  }
  if (m.type !== 'tls') return null;
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(m.target);
  return match ? { host: match[1]!, port: Number(match[2] ?? 443) } : null;
}

/**
 * Grades https and tls monitors about once per `intervalMs` (TLS grade and, for a host name, the domain grade)
 * and hands the results to intelligence, which keeps the history and raises drops and recoveries.
 */
export class SecurityGradesRole implements BackgroundRole {
  readonly name = 'intelligence-security-grades';
  private readonly deps: SecurityGradesDeps;
  private readonly loop: BackgroundLoop;
  constructor(deps: SecurityGradesDeps) {
    this.deps = deps;
    this.loop = new BackgroundLoop({
      name: this.name,
      everyMs: deps.tickMs,
      firstPass: 'after-wait',
      pass: () => this.gradeDue().then(() => undefined),
      failed: (err) => void deps.logger.warn({ err }, 'security grading failed'),
      ...(deps.timers && { timers: deps.timers }),
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Grades every checked monitor whose last grading is older than the interval; returns how many were graded. */
  async gradeDue(limit = 20): Promise<number> {
    const { clock, database } = this.deps;
    const ids = await new IntelligenceRepository(database).monitorsDueForGrading(
      clock.now() - this.deps.intervalMs,
      limit,
    );
    const monitors = await this.deps.monitors.findManyAnywhere(ids);
    let graded = 0;
    for (const m of monitors) {
      if (m.paused) continue;
      if (await this.grade(m)) graded++;
    }
    return graded;
  }

  /** Measures and records one monitor's grades; false when it has nothing to grade or may not be reached. */
  async grade(m: GradedMonitor): Promise<boolean> {
    const endpoint = tlsEndpointOf(m);
    if (!endpoint) return false;
    // One resolution per host for the whole grading: the handshakes and requests below reach the address vetted
    // here, whatever DNS answers meanwhile (rebinding).
    const connector = this.deps.connector.pinned();
    try {
      await connector.vet(endpoint.host);
    } catch {
      return false; // refused by the network policy, or does not resolve
    }
    const options: MeasureOptions = {
      connector,
      timeoutMs: this.deps.timeoutMs,
      now: this.deps.clock.now(),
      ...(this.deps.tlsCa ? { ca: this.deps.tlsCa } : {}),
      ...(this.deps.resolver ? { resolver: this.deps.resolver } : {}),
    };
    const tls = await measureTls(endpoint.host, endpoint.port, options);
    const subject = {
      organizationId: m.organizationId,
      id: m.id,
      name: m.name,
      target: m.target,
      openIncidents: m.config.intelligence_incidents === true,
    };
    const at = this.deps.clock.now();
    const tlsGrade = tls
      ? gradeTls(tls.facts)
      : { grade: 'F', score: 0, reasons: ['no TLS handshake succeeded'], not_tested: [] };
    let domain = null;
    if (!isIP(endpoint.host)) {
      const facts = await measureDomain(endpoint.host.replace(/^www\./i, ''), options);
      const plain = await fetchHeaders(`http://${endpoint.host}/`, options);
      const location = plain?.headers.location ?? '';
      domain = gradeDomain({
        ...facts,
        headers: tls?.headers ?? null,
        httpsRedirect: plain
          ? plain.status >= 300 &&
            plain.status < 400 &&
            location.toLowerCase().startsWith(`https://${endpoint.host.toLowerCase()}`)
          : null,
        tlsGrade: tlsGrade.grade as Parameters<typeof gradeDomain>[0]['tlsGrade'],
      });
    }
    await this.deps.database.transaction(async (tx) => {
      await this.deps.intelligence.recordGrade(tx, subject, 'tls', tlsGrade, at);
      if (domain) await this.deps.intelligence.recordGrade(tx, subject, 'domain', domain, at);
    });
    return true;
  }
}
