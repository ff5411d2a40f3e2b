import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, type PlanLimits, type PlanName } from '../../config/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { Plans } from './index.ts';

function thrown(fn: () => void): DomainError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a DomainError');
}

describe('Plans', () => {
  const plans = new Plans(structuredClone(DEFAULT_PLANS));

  it('returns the limits of a plan', () => {
    expect(plans.limitsOf('pro')).toEqual(DEFAULT_PLANS.pro);
  });

  describe('monitor count', () => {
    it('allows up to the limit and refuses one more, naming the limit and the plan', () => {
      expect(() => plans.requireWithin('free', 'monitors', 10, 'monitors')).not.toThrow();
      const err = thrown(() => plans.requireWithin('free', 'monitors', 11, 'monitors'));
      expect(err.code).toBe('plan_limit_exceeded');
      expect(err.message).toBe('The free plan allows 10 monitors; this would make 11.');
      expect(thrown(() => plans.requireWithin('pro', 'monitors', 51, 'monitors')).message).toContain(
        'pro plan allows 50 monitors',
      );
      expect(thrown(() => plans.requireWithin('team', 'monitors', 251, 'monitors')).message).toContain(
        'team plan allows 250 monitors',
      );
    });

    it('treats null as unlimited', () => {
      expect(() => plans.requireWithin('enterprise', 'monitors', 1_000_000, 'monitors')).not.toThrow();
    });
  });

  describe('interval floor', () => {
    it.each([
      ['free', 60],
      ['pro', 30],
      ['team', 15],
      ['enterprise', 10],
    ] as Array<[PlanName, number]>)('%s: %i s is allowed, one second less is not', (plan, floor) => {
      expect(() => plans.requireIntervalAtLeastFloor(plan, floor)).not.toThrow();
      expect(() => plans.requireIntervalAtLeastFloor(plan, floor + 100)).not.toThrow();
      const err = thrown(() => plans.requireIntervalAtLeastFloor(plan, floor - 1));
      expect(err.code).toBe('plan_limit_exceeded');
      expect(err.message).toBe(
        `The ${plan} plan's interval floor is ${floor} seconds; ${floor - 1} seconds is faster than that.`,
      );
    });
  });

  describe('regions per monitor', () => {
    it('free allows one region, pro three, team and enterprise all', () => {
      expect(() => plans.requireWithin('free', 'regions', 1, 'regions per monitor')).not.toThrow();
      const err = thrown(() => plans.requireWithin('free', 'regions', 2, 'regions per monitor'));
      expect(err.code).toBe('plan_limit_exceeded');
      expect(err.message).toBe('The free plan allows 1 regions per monitor; this would make 2.');
      expect(() => plans.requireWithin('pro', 'regions', 3, 'regions per monitor')).not.toThrow();
      expect(thrown(() => plans.requireWithin('pro', 'regions', 4, 'regions per monitor')).message).toContain(
        'pro plan allows 3',
      );
      expect(() => plans.requireWithin('team', 'regions', 50, 'regions per monitor')).not.toThrow();
      expect(() => plans.requireWithin('enterprise', 'regions', 50, 'regions per monitor')).not.toThrow();
    });
  });

  describe('status pages', () => {
    it('counts like monitors', () => {
      expect(() => plans.requireWithin('free', 'status_pages', 1, 'status pages')).not.toThrow();
      expect(thrown(() => plans.requireWithin('free', 'status_pages', 2, 'status pages')).message).toBe(
        'The free plan allows 1 status pages; this would make 2.',
      );
      expect(() => plans.requireWithin('enterprise', 'status_pages', 999, 'status pages')).not.toThrow();
    });
  });

  describe('API gate', () => {
    it('refuses free and pro with plan_upgrade_required naming the plan needed and the current one', () => {
      for (const plan of ['free', 'pro'] as const) {
        const err = thrown(() => plans.requireApi(plan));
        expect(err.code).toBe('plan_upgrade_required');
        expect(err.message).toBe(`API access needs the team plan or above; this organization is on the ${plan} plan.`);
      }
      expect(() => plans.requireApi('team')).not.toThrow();
      expect(() => plans.requireApi('enterprise')).not.toThrow();
    });
  });

  describe('reports gate', () => {
    it('refuses free only, naming pro', () => {
      const err = thrown(() => plans.requireReports('free'));
      expect(err.code).toBe('plan_upgrade_required');
      expect(err.message).toBe('Reports need the pro plan or above; this organization is on the free plan.');
      for (const plan of ['pro', 'team', 'enterprise'] as const) expect(() => plans.requireReports(plan)).not.toThrow();
    });
  });

  describe('operator-defined plans', () => {
    it('follow the configuration, and messages name the cheapest plan that has the feature', () => {
      const custom: Record<PlanName, PlanLimits> = structuredClone(DEFAULT_PLANS);
      custom.pro.api = true;
      custom.free.monitors = 2;
      custom.free.interval_floor_seconds = 1;
      const p = new Plans(custom);
      expect(thrown(() => p.requireApi('free')).message).toContain('needs the pro plan or above');
      expect(() => p.requireApi('pro')).not.toThrow();
      expect(() => p.requireIntervalAtLeastFloor('free', 1)).not.toThrow();
      expect(thrown(() => p.requireWithin('free', 'monitors', 3, 'monitors')).message).toContain('allows 2 monitors');
    });

    it('finds the cheapest plan with a property, or null', () => {
      expect(plans.cheapestWith((l) => l.reports)).toBe('pro');
      expect(plans.cheapestWith((l) => l.monitors === null)).toBe('enterprise');
      expect(plans.cheapestWith(() => false)).toBeNull();
    });
  });
});
