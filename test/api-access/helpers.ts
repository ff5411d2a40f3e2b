import type { LightMyRequestResponse } from 'fastify';
import { bearer, type TestApp } from '../support/app.ts';

export type InjectOptions = { headers?: Record<string, string>; body?: unknown };

/** One HTTP call with a key, through the real app. */
export function call(
  t: TestApp,
  key: string,
  method: string,
  url: string,
  o: InjectOptions = {},
): Promise<LightMyRequestResponse> {
  return t.tocsin.app.inject({
    method: method as 'GET',
    url,
    headers: { ...bearer(key), ...(o.body !== undefined && { 'content-type': 'application/json' }), ...o.headers },
    ...(o.body !== undefined && { payload: JSON.stringify(o.body) }),
  });
}

export function errorCode(res: LightMyRequestResponse): string | undefined {
  return (res.json() as { error?: { code?: string } }).error?.code;
}
