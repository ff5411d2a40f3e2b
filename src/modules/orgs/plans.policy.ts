import { PLAN_NAMES, type PlanLimits, type PlanName } from '../../config/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { plural } from '../../platform/plural.ts';

/** Plan rules: which plan allows what. Numbers come from configuration (DECISIONS §3). */
export class Plans {
  private readonly limits: Record<PlanName, PlanLimits>;
  constructor(limits: Record<PlanName, PlanLimits>) {
    this.limits = limits;
  }

  limitsOf(plan: PlanName): PlanLimits {
    return this.limits[plan];
  }

  /** The cheapest plan that satisfies `accepts`, for messages that tell the user what to buy. */
  cheapestWith(accepts: (limits: PlanLimits) => boolean): PlanName | null {
    return PLAN_NAMES.find((p) => accepts(this.limits[p])) ?? null;
  }

  requireApi(plan: PlanName): void {
    if (this.limits[plan].api) return;
    const needed = this.cheapestWith((l) => l.api) ?? 'team';
    throw new DomainError(
      'plan_upgrade_required',
      `API access needs the ${needed} plan or above; this organization is on the ${plan} plan.`,
    );
  }

  requireReports(plan: PlanName): void {
    if (this.limits[plan].reports) return;
    const needed = this.cheapestWith((l) => l.reports) ?? 'pro';
    throw new DomainError(
      'plan_upgrade_required',
      `Reports need the ${needed} plan or above; this organization is on the ${plan} plan.`,
    );
  }

  /**
   * Throws plan_limit_exceeded when `count` would pass a countable limit. `field`: the request field that asks for
   * too much (`region_codes`), named in `details[]` so a form can show the message next to it.
   */
  requireWithin(
    plan: PlanName,
    limit: 'monitors' | 'status_pages' | 'regions',
    count: number,
    what: string,
    field?: string,
  ): void {
    const max = this.limits[plan][limit];
    if (max === null || count <= max) return;
    const message = `The ${plan} plan allows ${max} ${what}; this would make ${count}.`;
    throw new DomainError(
      'plan_limit_exceeded',
      message,
      field === undefined ? undefined : [{ field, issue: message }],
    );
  }

  requireIntervalAtLeastFloor(plan: PlanName, intervalSeconds: number, field = 'interval_seconds'): void {
    const floor = this.limits[plan].interval_floor_seconds;
    if (intervalSeconds >= floor) return;
    const message = `The ${plan} plan's interval floor is ${plural(floor, 'second')}; ${plural(intervalSeconds, 'second')} is faster than that.`;
    throw new DomainError('plan_limit_exceeded', message, [{ field, issue: message }]);
  }
}
