import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A value read when Prometheus scrapes (from the database, through a module's public API). */
export type ScrapeRead<T> = () => Promise<T[]>;

export interface OpenIncidentsCount {
  /** `opened` or `acknowledged`. */
  status: string;
  count: number;
}

export interface OutboxConsumerLag {
  consumer: string;
  /** Age of the oldest event the consumer has not consumed yet; 0 when it is caught up. */
  lagSeconds: number;
}

export interface RegionBacklogGauge {
  region: string;
  /** Checks due and not claimed by any process. */
  count: number;
  /** How long the oldest of them has waited past its due time; 0 when there is none. */
  oldestDueAgeSeconds: number;
}

export interface TocsinMetricsOptions {
  /** Process and Node.js metrics (prom-client defaults); tests may leave them out. Default true. */
  processMetrics?: boolean;
  /** A scrape-time read failed (e.g. the database is down): its series are left out of that scrape. */
  onCollectError?: (source: string, err: unknown) => void;
}

const CHECK_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LATENESS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const INCIDENT_STATUSES = ['opened', 'acknowledged'];
const MISNAMED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * Every series `/metrics` serves, on one registry made by the composition root (one per process; tests make
 * their own). Names follow Prometheus conventions: `tocsin_` prefix, base units (seconds), `_total` counters.
 * Labels are bounded sets only (monitor type, region code, result, destination type, outcome, route pattern,
 * status class); never monitor, organization or request ids.
 *
 * The recording methods are on the hot path of checks and requests: children are looked up once per label
 * combination and kept, so a call is a map lookup and an increment.
 */
export class TocsinMetrics {
  readonly registry = new Registry();
  private readonly checks: Counter<'type' | 'region' | 'result'>;
  private readonly checkDuration: Histogram<'type' | 'region'>;
  private readonly checkLateness: Histogram<'region'>;
  private readonly claimLateness: Histogram<'region'>;
  private readonly slotsSkipped: Counter<'region'>;
  private readonly analyticsFailures: Counter<'analytics' | 'reason'>;
  private readonly deliveries: Counter<'destination_type' | 'outcome'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly apiRequests: Counter<'budget' | 'status'>;
  private readonly rateLimitedCount: Counter;
  private readonly rateLimitStoreErrors: Counter;
  private readonly idempotentReplays: Counter;
  private readonly children = new Map<string, Counter.Internal | Histogram.Internal<string>>();
  private readonly onCollectError: (source: string, err: unknown) => void;

  constructor(options: TocsinMetricsOptions = {}) {
    const registers = [this.registry];
    this.onCollectError = options.onCollectError ?? (() => {});
    if (options.processMetrics !== false) {
      // 100 ms instead of the default 10 ms: the event-loop delay monitor wakes the process at this rate.
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 100 });
      // prom-client adds these sums as gauges named `_total`, which Prometheus reserves for counters (`promtool check
      // metrics` flags them). Their labelled gauges without the suffix stay: sum(nodejs_active_handles) is the total.
      for (const name of MISNAMED_DEFAULT_GAUGES) this.registry.removeSingleMetric(name);
    }
    this.checks = new Counter({
      name: 'tocsin_checks_total',
      help: 'Checks whose result was recorded, by monitor type, region and result (up or down).',
      labelNames: ['type', 'region', 'result'],
      registers,
    });
    this.checkDuration = new Histogram({
      name: 'tocsin_check_duration_seconds',
      help: 'Time a probe took, by monitor type and region.',
      labelNames: ['type', 'region'],
      buckets: CHECK_DURATION_BUCKETS,
      registers,
    });
    this.checkLateness = new Histogram({
      name: 'tocsin_check_lateness_seconds',
      help: 'How long after its scheduled time a check started, by region.',
      labelNames: ['region'],
      buckets: LATENESS_BUCKETS,
      registers,
    });
    this.claimLateness = new Histogram({
      name: 'tocsin_check_claim_lateness_seconds',
      help: 'How long after its oldest missed slot a check was claimed (the backlog wait), by region.',
      labelNames: ['region'],
      buckets: LATENESS_BUCKETS,
      registers,
    });
    this.slotsSkipped = new Counter({
      name: 'tocsin_check_slots_skipped_total',
      help: 'Scheduled slots not run because the check was claimed later than its next slot (never queued), by region.',
      labelNames: ['region'],
      registers,
    });
    this.analyticsFailures = new Counter({
      name: 'tocsin_check_analytics_failures_total',
      help: 'Committed check batches whose analytics step (intelligence) was skipped, by step and reason (error, timeout, dropped); their results and alerts are stored.',
      labelNames: ['analytics', 'reason'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'tocsin_deliveries_total',
      help: 'Alert delivery attempts by destination type and outcome (ok, retry, payload_rejected, destination_broken, reauthorize).',
      labelNames: ['destination_type', 'outcome'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'tocsin_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern (unmatched for no route) and status class, with their duration.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    });
    this.apiRequests = new Counter({
      name: 'tocsin_api_requests_total',
      help: 'Authenticated API requests by budget class and status class.',
      labelNames: ['budget', 'status'],
      registers,
    });
    this.rateLimitedCount = new Counter({
      name: 'tocsin_rate_limited_total',
      help: 'Requests refused with 429 rate_limited.',
      registers,
    });
    this.rateLimitStoreErrors = new Counter({
      name: 'tocsin_rate_limit_store_errors_total',
      help: 'Rate-limit checks that failed open because the store did not answer.',
      registers,
    });
    this.idempotentReplays = new Counter({
      name: 'tocsin_idempotent_replays_total',
      help: 'Responses replayed for a repeated Idempotency-Key.',
      registers,
    });
  }

  /** One recorded check result; called after the transaction that stored it committed. */
  checkCompleted(type: string, region: string, result: string, durationMs: number, latenessMs: number): void {
    this.counter(this.checks, 'c', type, region, result).inc();
    this.histogram(this.checkDuration, 'd', type, region).observe(durationMs / 1000);
    // A check claimed with look-ahead may start a little before its slot: that is not lateness.
    this.histogram(this.checkLateness, 'l', region).observe(Math.max(0, latenessMs) / 1000);
  }

  /** A check claimed `latenessMs` after its oldest missed slot, `skippedSlots` slots too late to run. */
  checkClaimed(region: string, latenessMs: number, skippedSlots: number): void {
    this.histogram(this.claimLateness, 'k', region).observe(Math.max(0, latenessMs) / 1000);
    if (skippedSlots > 0) this.counter(this.slotsSkipped, 's', region).inc(skippedSlots);
  }

  /** An analytics step of a committed batch failed, overran its budget or was dropped: skipped for that batch. */
  checkAnalyticsFailed(analytics: string, reason: string): void {
    this.counter(this.analyticsFailures, 'x', analytics, reason).inc();
  }

  deliveryAttempted(destinationType: string, outcome: string): void {
    this.counter(this.deliveries, 'a', destinationType, outcome).inc();
  }

  /** `route` is the route pattern (`/api/v1/monitors/:id`), never the URL; undefined when no route matched. */
  httpRequest(method: string, route: string | undefined, statusCode: number, durationMs: number): void {
    this.histogram(this.httpDuration, 'h', method, route ?? 'unmatched', statusClassOf(statusCode)).observe(
      durationMs / 1000,
    );
  }

  apiRequest(budget: string, statusCode: number): void {
    this.counter(this.apiRequests, 'b', budget, statusClassOf(statusCode)).inc();
  }

  rateLimited(): void {
    this.rateLimitedCount.inc();
  }

  rateLimitStoreError(): void {
    this.rateLimitStoreErrors.inc();
  }

  idempotentReplay(): void {
    this.idempotentReplays.inc();
  }

  /** `tocsin_incidents_open{status}`, read at each scrape. */
  observeOpenIncidents(read: ScrapeRead<OpenIncidentsCount>): void {
    const onError = this.onCollectError;
    new Gauge({
      name: 'tocsin_incidents_open',
      help: 'Incidents not resolved yet, by status (opened, acknowledged).',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          const rows = await read();
          for (const status of INCIDENT_STATUSES) this.set({ status }, 0);
          for (const row of rows) this.set({ status: row.status }, row.count);
        } catch (err) {
          onError('tocsin_incidents_open', err);
        }
      },
    });
  }

  /** `tocsin_outbox_lag_seconds{consumer}`, read at each scrape. */
  observeOutboxLag(read: ScrapeRead<OutboxConsumerLag>): void {
    const onError = this.onCollectError;
    new Gauge({
      name: 'tocsin_outbox_lag_seconds',
      help: 'Age of the oldest outbox event a consumer has not consumed yet (0 when caught up), by consumer.',
      labelNames: ['consumer'],
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const row of await read()) this.set({ consumer: row.consumer }, row.lagSeconds);
        } catch (err) {
          onError('tocsin_outbox_lag_seconds', err);
        }
      },
    });
  }

  /** `tocsin_checks_backlog{region}` and `tocsin_checks_oldest_due_age_seconds{region}`, read at each scrape. */
  observeCheckBacklog(read: ScrapeRead<RegionBacklogGauge>): void {
    const onError = this.onCollectError;
    const gauge = (name: string, help: string, value: (row: RegionBacklogGauge) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['region'],
        registers: [this.registry],
        async collect() {
          this.reset();
          try {
            for (const row of await read()) this.set({ region: row.region }, value(row));
          } catch (err) {
            onError(name, err);
          }
        },
      });
    gauge('tocsin_checks_backlog', 'Checks due and not claimed by any process yet, by region.', (r) => r.count);
    gauge(
      'tocsin_checks_oldest_due_age_seconds',
      'How long the oldest due, unclaimed check has waited past its due time (0 when none), by region.',
      (r) => r.oldestDueAgeSeconds,
    );
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every series. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  private counter(metric: Counter<string>, tag: string, ...values: string[]): Counter.Internal {
    const key = `${tag}\u0000${values.join('\u0000')}`;
    let child = this.children.get(key) as Counter.Internal | undefined;
    if (!child) {
      child = metric.labels(...values);
      this.children.set(key, child);
    }
    return child;
  }

  private histogram(metric: Histogram<string>, tag: string, ...values: string[]): Histogram.Internal<string> {
    const key = `${tag}\u0000${values.join('\u0000')}`;
    let child = this.children.get(key) as Histogram.Internal<string> | undefined;
    if (!child) {
      child = metric.labels(...values);
      this.children.set(key, child);
    }
    return child;
  }
}

function statusClassOf(statusCode: number): string {
  return `${Math.floor(statusCode / 100)}xx`;
}
