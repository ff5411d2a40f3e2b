/** The error codes of the API envelope (DECISIONS §1), plus a few the HTTP layer adds. */
export type ErrorCode =
  | 'bad_request'
  | 'invalid_json'
  | 'unauthorized'
  | 'insufficient_scope'
  | 'forbidden'
  | 'plan_upgrade_required'
  | 'plan_limit_exceeded'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'managed_by_config'
  | 'idempotency_in_progress'
  | 'request_timeout'
  | 'payload_too_large'
  | 'uri_too_long'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'idempotency_key_mismatch'
  | 'target_unreachable'
  | 'reflection_unavailable'
  | 'rate_limited'
  | 'request_header_fields_too_large'
  | 'already_set_up'
  | 'invalid_credentials'
  | 'csrf_failed'
  | 'invalid_token'
  | 'internal_error'
  | 'service_unavailable';

export interface ErrorDetail {
  field: string;
  issue: string;
}

/** A failure a domain operation reports on purpose; the HTTP layer maps the code to a status in one place. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.details = details;
  }
}

export function validationFailed(details: ErrorDetail[], message = 'The request is not valid.'): DomainError {
  return new DomainError('validation_failed', message, details);
}

export function notFound(what: string): DomainError {
  return new DomainError('not_found', `${what} not found.`);
}
