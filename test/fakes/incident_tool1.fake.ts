import { randomUUID } from 'node:crypto';
import { headerOf, isObject, startFakeHttp, type FakeResponse, type FakeServer } from './fake-http.ts';

/** incident.io API fake: `POST /v2/incidents` (Bearer API key); idempotent on `idempotency_key`. */
const apiError = (status: number, type: string, code: string, message: string, field?: string): FakeResponse => ({
  status,
  body: {
    type,
    status,
    request_id: randomUUID(),
    errors: [{ code, message, ...(field ? { source: { field } } : {}) }],
  },
});

const FAILURES = {
  rate_limited: {
    status: 429,
    headers: { 'retry-after': '12' },
    body: {
      type: 'too_many_requests',
      status: 429,
      request_id: 'rl',
      rate_limit: { name: 'api_key', limit: 1200, remaining: 0 },
      errors: [{ code: 'too_many_requests', message: 'Rate limit exceeded' }],
    },
  },
  forbidden: apiError(
    403,
    'authorization_error',
    'missing_permission',
    'API key does not have permission to create incidents',
  ),
  validation_error: apiError(
    422,
    'validation_error',
    'is_required',
    'A severity is required to open an incident',
    'severity_id',
  ),
  server_error: apiError(500, 'internal_error', 'internal_error', 'Something went wrong'),
} satisfies Record<string, FakeResponse>;
export type IncidentTool1Failure = keyof typeof FAILURES;

export interface IncidentTool1Fake extends FakeServer<IncidentTool1Failure> {
  apiKey: string;
  severityIds: string[];
  incidents: Array<{ id: string; idempotency_key: string; body: Record<string, unknown> }>;
}

export async function startIncidentTool1Fake(
  options: { apiKey?: string; severityIds?: string[] } = {},
): Promise<IncidentTool1Fake> {
  const apiKey = options.apiKey ?? 'inc_fake_api_key_0123456789';
  const severityIds = options.severityIds ?? ['01FH5TZRWMNAFB0DZ23FD1TV96'];
  const incidents: IncidentTool1Fake['incidents'] = [];
  const server = await startFakeHttp(FAILURES, (req) => {
    if (headerOf(req, 'authorization') !== `Bearer ${apiKey}`)
      return apiError(401, 'authentication_error', 'authentication_error', 'Invalid API key');
    if (req.method !== 'POST' || req.path !== '/v2/incidents')
      return apiError(404, 'not_found', 'not_found', 'Not found');
    const body = req.json;
    if (!isObject(body)) return apiError(400, 'invalid_request', 'bad_request', 'Invalid JSON');
    if (typeof body.idempotency_key !== 'string' || body.idempotency_key === '')
      return apiError(422, 'validation_error', 'is_required', 'idempotency_key is required', 'idempotency_key');
    if (body.visibility !== 'public' && body.visibility !== 'private')
      return apiError(422, 'validation_error', 'is_required', 'visibility is required', 'visibility');
    if (typeof body.severity_id !== 'string') return FAILURES.validation_error;
    if (!severityIds.includes(body.severity_id))
      return apiError(422, 'validation_error', 'invalid_value', 'Severity not found', 'severity_id');
    const existing = incidents.find((i) => i.idempotency_key === body.idempotency_key);
    const incident = existing ?? {
      id: `01FAKEINCIDENT${String(incidents.length + 1).padStart(6, '0')}`,
      idempotency_key: body.idempotency_key,
      body,
    };
    if (!existing) incidents.push(incident);
    return {
      status: 200,
      body: {
        incident: {
          id: incident.id,
          name: body.name,
          summary: body.summary,
          visibility: body.visibility,
          mode: body.mode ?? 'standard',
        },
      },
    };
  });
  return Object.assign(server, { apiKey, severityIds, incidents });
}
