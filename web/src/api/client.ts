import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

/** One entry of the error envelope's `details`: the field (dotted path of the body) and what is wrong. */
export interface FieldIssue {
  field: string;
  issue: string;
}

/** A refusal from the API, as its error envelope says it (`{"error": {code, message, request_id, details}}`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldIssue[];
  readonly retryAfterSeconds: number | null;
  constructor(status: number, code: string, message: string, details: FieldIssue[], retryAfterSeconds: number | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }
  /** The issue the API names for one field (or one of its children), for showing next to it. */
  issueFor(field: string): string | undefined {
    return this.details.find(
      (d) => d.field === field || d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`),
    )?.issue;
  }
}

function apiErrorFrom(response: Response, body: unknown): ApiError {
  const envelope = (body as { error?: { code?: string; message?: string; details?: FieldIssue[] } } | null)?.error;
  const retry = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    envelope?.code ?? `http_${response.status}`,
    envelope?.message ?? `The server answered ${response.status}.`,
    envelope?.details ?? [],
    Number.isFinite(retry) && retry > 0 ? retry : null,
  );
}

/** The data of an openapi-fetch answer, or its envelope thrown as an ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw apiErrorFrom(result.response, result.error);
  return result.data as T;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The browser's API access: the session cookie (same origin, sent by the browser) and, on every mutating call,
 * the session's CSRF token in `X-CSRF-Token` (DECISIONS §14). No key is ever held by the page.
 */
export class Api {
  // The page reads JSON only: a report's CSV and PDF are downloaded by link, never parsed here.
  readonly client: Client<paths, 'application/json'>;
  private csrfToken: string | null = null;
  constructor() {
    this.client = createClient<paths, 'application/json'>({ baseUrl: '', credentials: 'same-origin' });
    this.client.use({
      onRequest: ({ request }) => {
        if (this.csrfToken && MUTATING.has(request.method)) request.headers.set('X-CSRF-Token', this.csrfToken);
        return request;
      },
    });
  }
  setCsrfToken(token: string | null): void {
    this.csrfToken = token;
  }
  /** A JSON call outside the typed client (sign-in and friends while their schema lands, downloads). */
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.csrfToken && MUTATING.has(method)) headers['x-csrf-token'] = this.csrfToken;
    const response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw apiErrorFrom(response, parsed);
    return parsed as T;
  }
}
