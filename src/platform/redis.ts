import { Redis } from 'ioredis';

export type { Redis };

export interface RedisOptions {
  /** Fail a command after this long instead of waiting (the rate limiter fails open). */
  commandTimeoutMs?: number;
  onError?(err: Error): void;
}

/**
 * An ioredis client for latency-sensitive use: no offline queue and one retry per request, so a
 * missing Redis makes commands fail fast instead of piling up.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  client.on('error', (err: Error) => options.onError?.(err));
  return client;
}
