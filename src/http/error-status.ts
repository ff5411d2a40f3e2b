import type { ErrorCode } from '../platform/errors.ts';

/** The one place where error codes become HTTP statuses (DECISIONS §1). */
export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  forbidden: 403,
  plan_upgrade_required: 403,
  plan_limit_exceeded: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_in_progress: 409,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_mismatch: 422,
  target_unreachable: 422,
  reflection_unavailable: 422,
  rate_limited: 429,
  request_header_fields_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
};
