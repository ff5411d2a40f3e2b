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
 *
 * An attempt is counted as a failure when it starts (`begin`), before the slow password check, and taken back when
 * it succeeds (`succeeded`): so attempts sent all at once are counted as they arrive, and the ones after the free
 * failures find the block instead of each checking a password.
 */
export class SignInThrottle {
  private readonly database: Database;
  private readonly clock: Clock;
  private readonly policy: ThrottlePolicy;
  private readonly namespace: string;
  private readonly forgetAccountOnSuccess: boolean;
  /**
   * `namespace` keeps another kind of guessing (a status page's password) in counters of its own;
   * `forgetAccountOnSuccess: false` for a shared secret: one right guess must not wipe what others failed.
   */
  constructor(deps: {
    database: Database;
    clock: Clock;
    policy?: ThrottlePolicy;
    namespace?: string;
    forgetAccountOnSuccess?: boolean;
  }) {
    this.database = deps.database;
    this.clock = deps.clock;
    this.policy = deps.policy ?? DEFAULT_THROTTLE;
    this.namespace = deps.namespace ?? '';
    this.forgetAccountOnSuccess = deps.forgetAccountOnSuccess ?? true;
  }

  /**
   * Counts the attempt, or throws `RetryLaterError` (429) while the account or the address is blocked (then nothing
   * is counted). One transaction whose counter rows stay locked: attempts sent at once are counted one after the
   * other, and those after the free failures find the block.
   */
  async begin(account: string, ip: string): Promise<void> {
    const now = this.clock.now();
    const windowStart = now - this.policy.windowMs;
    await this.database.transaction(async (tx) => {
      const repository = new SignInThrottleRepository(tx);
      for (const [subject, free] of this.subjects(account, ip)) {
        const { failures, blockedUntil } = await repository.addFailure(subject, now, windowStart);
        if (blockedUntil > now) {
          throw new RetryLaterError(
            'Too many failed sign-ins; wait before trying again.',
            Math.max(1, Math.ceil((blockedUntil - now) / 1000)),
          );
        }
        if (failures >= free) {
          const delay = Math.min(this.policy.maxDelayMs, 1000 * 2 ** Math.min(30, failures - free));
          await repository.block(subject, now + delay);
        }
      }
    });
  }

  /**
   * The attempt was right: the account's failures are forgotten, and the address's count loses this attempt again
   * (with any block it alone caused). The address's other failures stay: it may be guessing other accounts.
   */
  async succeeded(account: string, ip: string): Promise<void> {
    await this.database.transaction(async (tx) => {
      const repository = new SignInThrottleRepository(tx);
      const [[accountSubject, accountFree], [ipSubject, ipFree]] = this.subjects(account, ip);
      if (this.forgetAccountOnSuccess) await repository.clear(accountSubject);
      else await repository.takeBack(accountSubject, accountFree);
      await repository.takeBack(ipSubject, ipFree);
    });
  }

  /** A password set from a reset link: the account's failures are forgotten. */
  async forgetAccount(account: string): Promise<void> {
    await new SignInThrottleRepository(this.database).clear(`${this.namespace}account:${account}`);
  }

  private subjects(account: string, ip: string): [[string, number], [string, number]] {
    return [
      [`${this.namespace}account:${account}`, this.policy.accountFreeFailures],
      [`${this.namespace}ip:${ip}`, this.policy.ipFreeFailures],
    ];
  }
}
