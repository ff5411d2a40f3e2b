/** Counters of the API-access layer, rendered in the Prometheus text format by GET /metrics. */
export class ApiMetrics {
  private readonly requests = new Map<string, number>();
  rateLimitStoreErrors = 0;
  rateLimited = 0;
  idempotentReplays = 0;

  countRequest(budget: string, statusClass: string): void {
    const k = `${budget}|${statusClass}`;
    this.requests.set(k, (this.requests.get(k) ?? 0) + 1);
  }

  render(): string {
    const lines = [
      '# HELP tocsin_api_requests_total Authenticated API requests by budget class and status class.',
      '# TYPE tocsin_api_requests_total counter',
    ];
    for (const [k, v] of [...this.requests].sort()) {
      const [budget, status] = k.split('|');
      lines.push(`tocsin_api_requests_total{budget="${budget}",status="${status}"} ${v}`);
    }
    lines.push(
      '# HELP tocsin_rate_limited_total Requests refused with 429 rate_limited.',
      '# TYPE tocsin_rate_limited_total counter',
      `tocsin_rate_limited_total ${this.rateLimited}`,
      '# HELP tocsin_rate_limit_store_errors_total Rate-limit checks that failed open because the store did not answer.',
      '# TYPE tocsin_rate_limit_store_errors_total counter',
      `tocsin_rate_limit_store_errors_total ${this.rateLimitStoreErrors}`,
      '# HELP tocsin_idempotent_replays_total Responses replayed for a repeated Idempotency-Key.',
      '# TYPE tocsin_idempotent_replays_total counter',
      `tocsin_idempotent_replays_total ${this.idempotentReplays}`,
    );
    return `${lines.join('\n')}\n`;
  }
}
