import type { Redis } from '../../platform/redis.ts';
import type { RateDecision, RateLimitStore } from './rate-limit.ts';

/**
 * GCRA in one Lua script, so read-check-write is atomic across every process sharing the Redis.
 * `now` comes from the caller's injected clock (processes' clocks are NTP-synchronised; tests share
 * one ManualClock). The TAT is written with %.3f to keep sub-millisecond intervals exact.
 */
const GCRA_LUA = `
local now = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local interval = period / limit
local tat = tonumber(redis.call('GET', KEYS[1]))
if tat == nil or tat < now then tat = now end
local new_tat = tat + interval
local allow_at = new_tat - period
if now < allow_at then
  return {0, 0, math.ceil(tat - now), math.ceil(allow_at - now)}
end
redis.call('SET', KEYS[1], string.format('%.3f', new_tat), 'PX', math.ceil(new_tat - now) + 1)
return {1, math.floor((now - allow_at) / interval), math.ceil(new_tat - now), 0}
`;

type GcraReply = [number, number, number, number];
type WithGcra = Redis & { tocsinGcra(key: string, now: number, period: number, limit: number): Promise<GcraReply> };

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: WithGcra;
  private readonly prefix: string;
  private readonly ownsClient: boolean;
  constructor(redis: Redis, options: { prefix?: string; ownsClient?: boolean } = {}) {
    redis.defineCommand('tocsinGcra', { numberOfKeys: 1, lua: GCRA_LUA });
    this.redis = redis as WithGcra;
    this.prefix = options.prefix ?? 'tocsin:rl:';
    this.ownsClient = options.ownsClient ?? true;
  }

  /** Until the first connection is up, a check waits for it (briefly) instead of failing open. */
  private firstConnect(): Promise<void> {
    if (this.connected || this.redis.status === 'ready') {
      this.connected = true;
      return Promise.resolve();
    }
    this.connecting ??= new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, 1000);
      this.redis.once('ready', done);
    }).finally(() => {
      this.connected = true;
    });
    return this.connecting;
  }

  private connected = false;
  private connecting: Promise<void> | null = null;

  async consume(key: string, limit: number, periodMs: number, now: number): Promise<RateDecision> {
    if (!this.connected) await this.firstConnect();
    const [allowed, remaining, resetMs, retryAfterMs] = await this.redis.tocsinGcra(
      `${this.prefix}${key}`,
      now,
      periodMs,
      limit,
    );
    return { allowed: allowed === 1, limit, remaining, resetMs, retryAfterMs };
  }

  async close(): Promise<void> {
    if (!this.ownsClient) return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
