/**
 * What the API benches (api.serve-mix.bench.ts, api.op-cost.bench.ts) make through the API before they measure: the
 * keys the load is spread over and the 10,000 monitors, each made the same way by both.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A JSON API call with a key; a 429 waits for its Retry-After and tries again, any other failure throws. */
export type ApiCall = (key: string, method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

export function apiCaller(origin: string): ApiCall {
  return async (key, method, path, body) => {
    for (;;) {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (res.status === 429) {
        await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
        continue;
      }
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    }
  };
}

/** `count` keys for the monitors: the largest budget a key may have is 100,000 requests a minute, so load is spread. */
export async function makeBenchKeys(call: ApiCall, bootstrapKey: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const made = await call(bootstrapKey, 'POST', '/api/v1/api-keys', {
      name: `bench ${i}`,
      scopes: ['monitors:read', 'monitors:create', 'monitors:write', 'monitors:delete'],
      environments: ['production', 'staging'],
      rate_limits: { read_per_minute: 100_000, write_per_minute: 100_000, delete_per_minute: 100_000 },
    });
    keys.push(made.key as string);
  }
  return keys;
}

/**
 * The body of the bench's monitor `i`: an active one checks `target` every `intervalSeconds`; the others are paused
 * http and tcp monitors of made-up hosts. Tags and environments vary so that filtered lists have something to match.
 */
export function benchMonitorBody(
  i: number,
  active: { target: string; intervalSeconds: number } | null,
): Record<string, unknown> {
  return {
    name: `service ${i}`,
    ...(active
      ? { target: active.target, type: 'http', interval_seconds: active.intervalSeconds }
      : {
          target: i % 3 === 0 ? `shop-${i}.example.com:443` : `https://api-${i}.example.com/health`,
          type: i % 3 === 0 ? 'tcp' : 'http',
          interval_seconds: 60,
          paused: true,
        }),
    tags: [`team-${i % 20}`, i % 2 === 0 ? 'public' : 'internal'],
    environment: i % 4 === 0 ? 'staging' : 'production',
  };
}
