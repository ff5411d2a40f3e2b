import type { Span } from './availability.accounting.ts';
import type { MonitorHealthFinding } from './monitor-health.types.ts';
import { plural, spanText } from '../../platform/plural.ts';

/**
 * The monitor-health rules of reference/intelligence.md §7, as pure functions of figures read from the timeline,
 * the incidents and the rollups (never raw executions). Thresholds that §7 states per week (incidents, flap
 * episodes) are scaled to the report's window: `limit × window days / 7`.
 */
export const HEALTH_RULES = {
  /** Noisy: more than 14 incidents a week (2 a day: the SRE book's budget of one on-call shift). */
  incidentsPerWeek: 14,
  /** Noisy: more than half of the incidents auto-resolved within 5 minutes (PagerDuty's transient alerts). */
  transientShare: 0.5,
  transientMs: 5 * 60_000,
  /** Flapping: Nagios percent state change at or above 30 % at any time (Icinga 2 high/low 30/25)… */
  flappingHighPercent: 30,
  flappingLowPercent: 25,
  /** …or at least 3 flapping episodes a week. */
  flapEpisodesPerWeek: 3,
  /** Never succeeded: no successful check since creation after 24 hours or 20 checks. */
  neverSucceededAfterMs: 24 * 3_600_000,
  neverSucceededAfterChecks: 20,
  /** Misconfigured: paused for more than 60 days (Datadog's muted_duration_over_sixty_days). */
  pausedMs: 60 * 86_400_000,
  /** Misconfigured (also): no alert destination linked. A timeout below 1.5 × the p95 latency. */
  timeoutToP95: 1.5,
} as const;

const DAY_MS = 86_400_000;
/** Nagios keeps 21 states, i.e. 20 transitions (reference §3). */
const HISTORY = 21;

/**
 * Nagios `base/flapping.c`: over the 20 transitions between the last 21 states, a change at position x
 * (1 = oldest … 20 = newest) weighs 0.75 + (x − 1)·0.5/19; percent = 100 · Σw / 20.
 */
export function percentStateChange(states: string): number {
  let total = 0;
  const transitions = HISTORY - 1;
  for (let i = 1; i < states.length; i++) {
    if (states[i] === states[i - 1]) continue;
    const x = i - (states.length - HISTORY);
    total += 0.75 + ((x - 1) * 0.5) / (transitions - 1);
  }
  return (100 * total) / transitions;
}

export interface FlappingFigures {
  /** The highest percent state change seen at a check inside the window (0 before 21 states exist). */
  maxPercent: number;
  /** Times flapping started inside the window (at ≥ high, ended at ≤ low). */
  episodes: number;
}

/**
 * Flapping of the monitor's confirmed (post-threshold, post-confirm_regions) state, as §3 proposes: the timeline's
 * up/down spans become one state per check interval (a span of d ms is max(1, round(d / interval)) checks), and
 * the Nagios curve is evaluated at each of them. A pause, a gap without verdict or the monitor's absence starts
 * the history afresh (Nagios records no state then); nothing is judged before 21 states exist.
 */
export function flappingOf(spans: readonly Span[], intervalMs: number, from: number, end: number): FlappingFigures {
  let states = '';
  let flapping = false;
  let maxPercent = 0;
  let episodes = 0;
  for (const s of spans) {
    if (s.state !== 'up' && s.state !== 'down') {
      states = '';
      flapping = false;
      continue;
    }
    const ticks = Math.max(1, Math.round((s.end - s.start) / intervalMs));
    const ch = s.state === 'down' ? '1' : '0';
    // After 21 equal states nothing changes any more: the rest of a long span needs no evaluation.
    for (let k = 0; k < Math.min(ticks, HISTORY + 1); k++) {
      const at = s.start + k * intervalMs;
      states = (states + ch).slice(-HISTORY);
      if (states.length < HISTORY) continue;
      const psc = percentStateChange(states);
      const inside = at >= from && at < end;
      if (inside) maxPercent = Math.max(maxPercent, psc);
      if (!flapping && psc >= HEALTH_RULES.flappingHighPercent) {
        flapping = true;
        if (inside) episodes += 1;
      } else if (flapping && psc <= HEALTH_RULES.flappingLowPercent) flapping = false;
    }
  }
  return { maxPercent, episodes };
}

/** One incident as the rules see it. */
export interface HealthIncident {
  openedAt: number;
  resolvedAt: number | null;
  resolvedBy: string | null;
  cause: string | null;
}

/** Everything the rules read about one monitor. */
export interface HealthFacts {
  /** The judged window: [from, end), end = min(to, now). */
  from: number;
  end: number;
  /** Incidents the system opened for the monitor (source monitor or intelligence) inside the window. */
  incidents: readonly HealthIncident[];
  flapping: FlappingFigures;
  intervalSeconds: number;
  /** Paused at `end`: since when; null when not paused. */
  pausedSince: number | null;
  timeoutMs: number | null;
  p95Ms: number | null;
  createdAt: number;
  /** Since creation until `end`: whether any check or verdict succeeded, and the checks counted by the rollups. */
  everSucceeded: boolean;
  checksSinceCreation: number;
  /** Alert destinations linked to the monitor; null when not known. */
  destinations: number | null;
  /** How many regions check it, how many must agree to go down (the effective number) and its failure_threshold;
   *  null when not known. The noisy advice names what is left to raise. */
  regions?: number | null;
  confirmRegions?: number | null;
  failureThreshold?: number | null;
}

/** What a noisy monitor can still raise before alerting: another region, more confirming regions, a longer run. */
function noisyAdvice(f: HealthFacts): string {
  const run =
    f.failureThreshold === null || f.failureThreshold === undefined
      ? 'a longer failure run (failure_threshold)'
      : `a longer failure run (failure_threshold is ${f.failureThreshold})`;
  const regions = f.regions ?? null;
  if (regions === null) return `require confirmation from another region or ${run} before alerting`;
  if (regions < 2) return `check it from a second region and require both to agree, or require ${run} before alerting`;
  const confirm = f.confirmRegions ?? null;
  if (confirm !== null && confirm >= regions) return `require ${run} before alerting`;
  return (
    `require more of its ${plural(regions, 'region')} to agree (confirm_regions` +
    `${confirm === null ? '' : ` is ${confirm}`}) or ${run} before alerting`
  );
}

/** A failure cause that says the monitor, not the target, is set up wrong (§7's misconfigured list). */
const CAUSE_CLASSES: ReadonlyArray<{ kind: string; test: RegExp; advice: string }> = [
  {
    kind: 'redirect',
    test: /^HTTP 3\d\d\b/,
    advice: 'the URL redirects: point the monitor at the final address',
  },
  {
    kind: 'authentication',
    test: /^HTTP 40[13]\b/,
    advice: 'the target refuses the request as unauthenticated or forbidden: add credentials or check the URL',
  },
  { kind: 'not_found', test: /^HTTP 404\b/, advice: 'the URL does not exist on the target (404)' },
  {
    kind: 'tls_name_mismatch',
    test: /altname|does not match (the )?certificate|name mismatch|ERR_TLS_CERT_ALTNAME/i,
    advice: "the certificate is not for this host name: the monitor's host is probably wrong",
  },
  {
    kind: 'content_assertion',
    test: /^(body|json|header) assertion failed/,
    advice: 'the response arrives but a content assertion fails: the keyword or path is probably out of date',
  },
];

const round1 = (v: number) => Math.round(v * 10) / 10;
const days = (ms: number) => round1(ms / DAY_MS);

/** The findings of one monitor, in the order noisy, flapping, misconfigured, never_succeeded. */
export function findingsOf(f: HealthFacts): MonitorHealthFinding[] {
  const out: MonitorHealthFinding[] = [];
  const windowDays = (f.end - f.from) / DAY_MS;
  const perWeek = (limit: number) => (limit * windowDays) / 7;

  const count = f.incidents.length;
  const noisyLimit = perWeek(HEALTH_RULES.incidentsPerWeek);
  const transient = f.incidents.filter(
    (i) => i.resolvedBy === 'auto' && i.resolvedAt !== null && i.resolvedAt - i.openedAt < HEALTH_RULES.transientMs,
  ).length;
  const transientShare = count === 0 ? 0 : transient / count;
  const tooMany = count > noisyLimit;
  const tooTransient = count > 0 && transientShare > HEALTH_RULES.transientShare;
  if (tooMany || tooTransient) {
    const reasons: string[] = [];
    if (tooMany)
      reasons.push(
        `${plural(count, 'incident')} in ${plural(days(f.end - f.from), 'day')}, more than the ` +
          `${round1(noisyLimit)} allowed at 14 a week`,
      );
    if (tooTransient)
      reasons.push(
        `${transient} of its ${plural(count, 'incident')} (${round1(100 * transientShare)} %) resolved ` +
          `${transient === 1 ? 'itself' : 'themselves'} within 5 minutes`,
      );
    out.push({
      kind: 'noisy',
      reason: `${capitalize(reasons.join('; '))}: ${noisyAdvice(f)}.`,
      evidence: {
        incidents: count,
        window_days: days(f.end - f.from),
        incident_limit: round1(noisyLimit),
        transient_incidents: transient,
        transient_percent: round1(100 * transientShare),
        transient_limit_percent: 100 * HEALTH_RULES.transientShare,
        transient_seconds: HEALTH_RULES.transientMs / 1000,
      },
    });
  }

  const episodeLimit = perWeek(HEALTH_RULES.flapEpisodesPerWeek);
  const highPsc = f.flapping.maxPercent >= HEALTH_RULES.flappingHighPercent;
  const manyEpisodes = f.flapping.episodes > 0 && f.flapping.episodes >= episodeLimit;
  if (highPsc || manyEpisodes) {
    const parts: string[] = [];
    if (highPsc)
      parts.push(
        `its up/down state changed ${round1(f.flapping.maxPercent)} % of the time over 21 checks (flapping starts at ${HEALTH_RULES.flappingHighPercent} %)`,
      );
    if (manyEpisodes)
      parts.push(
        `it flapped ${f.flapping.episodes === 1 ? 'once' : `${f.flapping.episodes} times`}, at least ` +
          `${round1(episodeLimit)} (3 a week)`,
      );
    out.push({
      kind: 'flapping',
      reason: `${capitalize(parts.join(', and '))}.`,
      evidence: {
        max_percent_state_change: round1(f.flapping.maxPercent),
        high_percent: HEALTH_RULES.flappingHighPercent,
        low_percent: HEALTH_RULES.flappingLowPercent,
        episodes: f.flapping.episodes,
        episode_limit: round1(episodeLimit),
        interval_seconds: f.intervalSeconds,
      },
    });
  }

  if (f.pausedSince !== null && f.end - f.pausedSince > HEALTH_RULES.pausedMs) {
    out.push({
      kind: 'misconfigured',
      reason: `Paused for ${plural(days(f.end - f.pausedSince), 'day')} (more than 60): resume it or delete it.`,
      evidence: {
        rule: 'paused_too_long',
        paused_since: new Date(f.pausedSince).toISOString(),
        paused_days: days(f.end - f.pausedSince),
        limit_days: HEALTH_RULES.pausedMs / DAY_MS,
      },
    });
  }
  if (f.destinations === 0) {
    out.push({
      kind: 'misconfigured',
      reason: 'No alert destination is linked to it: its outages reach nobody.',
      evidence: { rule: 'no_notification_channel', destinations: 0 },
    });
  }
  if (f.timeoutMs !== null && f.p95Ms !== null && f.timeoutMs < HEALTH_RULES.timeoutToP95 * f.p95Ms) {
    out.push({
      kind: 'misconfigured',
      reason: `Its timeout of ${f.timeoutMs} ms is below 1.5 × its p95 latency of ${round1(f.p95Ms)} ms: slow but working responses will count as failures.`,
      evidence: {
        rule: 'timeout_below_latency',
        timeout_ms: f.timeoutMs,
        p95_ms: round1(f.p95Ms),
        minimum_timeout_ms: round1(HEALTH_RULES.timeoutToP95 * f.p95Ms),
      },
    });
  }
  if (count > 0) {
    for (const c of CAUSE_CLASSES) {
      const matching = f.incidents.filter((i) => i.cause !== null && c.test.test(i.cause)).length;
      if (matching !== count) continue;
      out.push({
        kind: 'misconfigured',
        reason:
          count === 1
            ? `Its only incident failed this way (“${f.incidents[0]!.cause}”): ${c.advice}.`
            : `All ${count} incidents failed the same way (“${f.incidents[0]!.cause}”): ${c.advice}.`,
        evidence: { rule: c.kind, incidents: count, matching_incidents: matching, cause: f.incidents[0]!.cause },
      });
    }
  }

  const age = f.end - f.createdAt;
  if (
    !f.everSucceeded &&
    f.checksSinceCreation > 0 &&
    (age >= HEALTH_RULES.neverSucceededAfterMs || f.checksSinceCreation >= HEALTH_RULES.neverSucceededAfterChecks)
  ) {
    out.push({
      kind: 'never_succeeded',
      reason:
        (f.checksSinceCreation === 1
          ? `Its only check in the ${spanText(age)} since it was created failed`
          : `None of its ${f.checksSinceCreation} checks in the ${spanText(age)} since it was created succeeded`) +
        ': check the target, the assertions and the network path.',
      evidence: {
        checks: f.checksSinceCreation,
        successful_checks: 0,
        age_hours: round1(age / 3_600_000),
        after_hours: HEALTH_RULES.neverSucceededAfterMs / 3_600_000,
        after_checks: HEALTH_RULES.neverSucceededAfterChecks,
      },
    });
  }
  return out;
}

function capitalize(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}
