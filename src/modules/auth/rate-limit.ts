import type { Clock } from '../../platform/clock.ts';
import type { Actor } from './actor.ts';

export type BudgetClass = 'read' | 'write' | 'delete';

/** Budget class by method (DECISIONS §2): GET/HEAD read, POST/PUT/PATCH write, DELETE delete. */
export function budgetClassOf(method: string): BudgetClass {
  // Fastify hands methods upper-case; only another spelling pays for toUpperCase.
  if (method === 'GET') return 'read';
  switch (method.toUpperCase()) {
    case 'DELETE':
      return 'delete';
    case 'POST':
    case 'PUT':
    case 'PATCH':
      return 'write';
    default:
      return 'read';
  }
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the budget is full again. */
  resetMs: number;
  /** Milliseconds until the next request would be allowed (0 when allowed). */
  retryAfterMs: number;
}

/** One budget check: consumes one request from `key`'s budget of `limit` per `periodMs` when allowed. */
export interface RateLimitStore {
  consume(key: string, limit: number, periodMs: number, now: number): Promise<RateDecision>;
  /** The same without a promise, for a store that needs no I/O (in-process); absent otherwise. */
  consumeNow?(key: string, limit: number, periodMs: number, now: number): RateDecision;
  close(): Promise<void>;
}

export const RATE_PERIOD_MS = 60_000;

/**
 * GCRA (generic cell rate algorithm): one number per budget, the theoretical arrival time (TAT).
 * Each request moves the TAT by period/limit; a request is refused when that would put the TAT more
 * than one period ahead of now. Equivalent to a token bucket of `limit` that refills continuously,
 * so a burst of `limit` is allowed and then one request every period/limit.
 */
export function gcra(
  tat: number | undefined,
  limit: number,
  periodMs: number,
  now: number,
): { decision: RateDecision; newTat: number | null } {
  const interval = periodMs / limit;
  const base = tat === undefined || tat < now ? now : tat;
  const newTat = base + interval;
  const allowAt = newTat - periodMs;
  if (now < allowAt) {
    return {
      decision: {
        allowed: false,
        limit,
        remaining: 0,
        resetMs: Math.ceil(base - now),
        retryAfterMs: Math.ceil(allowAt - now),
      },
      newTat: null,
    };
  }
  return {
    decision: {
      allowed: true,
      limit,
      remaining: Math.max(0, Math.floor((now - allowAt) / interval)),
      resetMs: Math.ceil(newTat - now),
      retryAfterMs: 0,
    },
    newTat,
  };
}

/** In-process budgets: right for one API process (SQLite `serve`), and for tests with a ManualClock. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>();
  private lastSweep = 0;

  async consume(key: string, limit: number, periodMs: number, now: number): Promise<RateDecision> {
    return this.consumeNow(key, limit, periodMs, now);
  }

  consumeNow(key: string, limit: number, periodMs: number, now: number): RateDecision {
    const { decision, newTat } = gcra(this.tats.get(key), limit, periodMs, now);
    if (newTat !== null) this.tats.set(key, newTat);
    if (now - this.lastSweep > periodMs) this.sweep(now);
    return decision;
  }

  /** Forgets budgets that are full again (their TAT is in the past). */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [k, tat] of this.tats) if (tat <= now) this.tats.delete(k);
  }

  async close(): Promise<void> {
    this.tats.clear();
  }
}

export interface RateLimiterDeps {
  store: RateLimitStore;
  clock: Clock;
  /** Called when the store failed; the request is served (fail open). */
  onStoreError?(err: unknown): void;
}

/** Per-key budgets by class; asks the store, and fails open when the store does not answer. */
export class RateLimiter {
  private readonly deps: RateLimiterDeps;
  constructor(deps: RateLimiterDeps) {
    this.deps = deps;
  }

  async check(actor: Actor, budget: BudgetClass): Promise<RateDecision | null> {
    const limit = actor.rateLimits[budget];
    try {
      return await this.deps.store.consume(`${actor.keyId}:${budget}`, limit, RATE_PERIOD_MS, this.deps.clock.now());
    } catch (err) {
      this.deps.onStoreError?.(err);
      return null;
    }
  }

  /**
   * `check` without a promise when the store answers in-process: the decision (null when the store
   * failed: fail open, as `check`); undefined when the store needs I/O and `check` must be used.
   */
  checkNow(actor: Actor, budget: BudgetClass): RateDecision | null | undefined {
    const store = this.deps.store;
    if (!store.consumeNow) return undefined;
    try {
      return store.consumeNow(
        `${actor.keyId}:${budget}`,
        actor.rateLimits[budget],
        RATE_PERIOD_MS,
        this.deps.clock.now(),
      );
    } catch (err) {
      this.deps.onStoreError?.(err);
      return null;
    }
  }

  close(): Promise<void> {
    return this.deps.store.close();
  }
}
