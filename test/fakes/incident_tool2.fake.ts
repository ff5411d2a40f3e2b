import { randomUUID } from 'node:crypto';
import { headerOf, isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** Rootly API fake: `POST /v1/incidents` (JSON:API, Bearer key) → 201 `{data:{id,type,attributes}}`. */
const jsonApiError = (status: number, title: string, detail?: string): FakeResponse => ({
  status,
  headers: { 'content-type': 'application/vnd.api+json' },
  body: { errors: [{ status: String(status), title, ...(detail ? { detail } : {}) }] },
});

const FAILURES = {
  rate_limited: {
    ...jsonApiError(429, 'Request Limit Exceeded'),
    headers: {
      'content-type': 'application/vnd.api+json',
      'ratelimit-limit': '3000',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '30',
    },
  },
  required_field: jsonApiError(422, 'Validation failed', 'Custom field "Customer impact" is required'),
  not_found: jsonApiError(404, 'Not Found'),
  server_error: jsonApiError(500, 'Internal Server Error'),
} satisfies Record<string, FakeResponse>;
export type IncidentTool2Failure = keyof typeof FAILURES;

export interface IncidentTool2Fake extends FakeServer<IncidentTool2Failure> {
  apiKey: string;
  incidents: Array<{ id: string; attributes: Record<string, unknown> }>;
}

export async function startIncidentTool2Fake(options: { apiKey?: string } = {}): Promise<IncidentTool2Fake> {
  const apiKey = options.apiKey ?? 'rootly_fake_api_key_abcdef';
  const incidents: IncidentTool2Fake['incidents'] = [];
  const server = await startFakeHttp(FAILURES, (req) => {
    if (headerOf(req, 'authorization') !== `Bearer ${apiKey}`)
      return jsonApiError(401, 'Unauthorized', 'Invalid API key');
    if (req.method !== 'POST' || req.path !== '/v1/incidents') return FAILURES.not_found;
    if (!String(headerOf(req, 'content-type') ?? '').startsWith('application/vnd.api+json'))
      return jsonApiError(415, 'Unsupported Media Type');
    const body = req.json;
    const data = isObject(body) && isObject(body.data) ? body.data : null;
    if (!data || data.type !== 'incidents' || !isObject(data.attributes))
      return jsonApiError(422, 'Validation failed', 'data.type must be incidents');
    const incident = { id: randomUUID(), attributes: data.attributes };
    incidents.push(incident);
    return {
      status: 201,
      headers: { 'content-type': 'application/vnd.api+json' },
      body: {
        data: {
          id: incident.id,
          type: 'incidents',
          attributes: { ...data.attributes, status: 'started', slug: `incident-${incidents.length}` },
        },
      },
    };
  });
  return Object.assign(server, { apiKey, incidents });
}
