import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/index.ts';
import { DomainError } from '../../platform/errors.ts';
import { SignInThrottleRepository } from './sign-in-throttle.repository.ts';

/** A refusal that tells the client when to try again (the route sends it as `Retry-After`). */
export class RetryLaterError extends DomainError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface ThrottlePolicy {
  /** Failures of one account before each further one is slowed down. */
  accountFreeFailures: number;
  /** Failures from one address (shared by people behind one NAT, so more). */
  ipFreeFailures: number;
  /** Failures older than this are forgotten. */
  windowMs: number;
  /** The longest delay: the doubling stops here. */
  maxDelayMs: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  accountFreeFailures: 5,
  ipFreeFailures: 20,
  windowMs: 3_600_000,
  maxDelayMs: 15 * 60_000,
};

/**
 * Slows down repeated failed sign-ins per account and per client address: after the free failures each further
 * failure blocks the subject for 1 s, 2 s, 4 s … up to `maxDelayMs`. Rows in the database, so every process sees
 * the same counts; the clock is injected.
 */
export class SignInThrottle {
  private readonly database: Database;
  private readonly clock: Clock;
  private readonly policy: ThrottlePolicy;
  constructor(deps: { database: Database; clock: Clock; policy?: ThrottlePolicy }) {
    this.database = deps.database;
    this.clock = deps.clock;
    this.policy = deps.policy ?? DEFAULT_THROTTLE;
  }

  /** Throws `RetryLaterError` (429) while the account or the address is blocked. */
  async check(account: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const until = await new SignInThrottleRepository(this.database).blockedUntil([`account:${account}`, `ip:${ip}`]);
    if (until > now) {
      throw new RetryLaterError(
        'Too many failed sign-ins; wait before trying again.',
        Math.max(1, Math.ceil((until - now) / 1000)),
      );
    }
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const windowStart = now - this.policy.windowMs;
    await this.database.transaction(async (tx) => {
      const repository = new SignInThrottleRepository(tx);
      for (const [subject, free] of [
        [`account:${account}`, this.policy.accountFreeFailures],
        [`ip:${ip}`, this.policy.ipFreeFailures],
      ] as const) {
        const failures = await repository.addFailure(subject, now, windowStart);
        if (failures >= free) {
          const delay = Math.min(this.policy.maxDelayMs, 1000 * 2 ** Math.min(30, failures - free));
          await repository.block(subject, now + delay);
        }
      }
    });
  }

  /** A successful sign-in forgets the account's failures (the address's stay: it may be guessing others). */
  async recordSuccess(account: string): Promise<void> {
    await new SignInThrottleRepository(this.database).clear(`account:${account}`);
  }
}
