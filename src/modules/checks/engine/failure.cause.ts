import type { Observation } from '../probes/index.ts';

function expectedOf(assertion: Record<string, unknown>): string | null {
  if (assertion.equals !== undefined) return String(assertion.equals as string | number);
  if (Array.isArray(assertion.in)) return (assertion.in as unknown[]).map(String).join(' or ');
  return null;
}

/** A failing observation as one human-readable reason: "HTTP 503 (expected 200)", "timeout: no complete response within 10000 ms". */
export function causeOf(observation: Observation): string | null {
  if (observation.status === 'up') return null;
  const failedStatus = observation.assertions.find((a) => !a.passed && a.type === 'status');
  if (failedStatus) {
    const expected = expectedOf(failedStatus);
    return `HTTP ${String(observation.http_status ?? failedStatus.actual)}${expected ? ` (expected ${expected})` : ''}`;
  }
  const err = observation.error;
  if (err?.code === 'http_status') return `HTTP ${observation.http_status ?? '?'} (expected 2xx or 3xx)`;
  const failed = observation.assertions.find((a) => !a.passed);
  if (failed) {
    const expected = expectedOf(failed);
    return `${failed.type} assertion failed: got ${JSON.stringify(failed.actual)}${expected ? `, expected ${expected}` : ''}`;
  }
  if (err) return err.code === 'timeout' ? `timeout: ${err.message}` : err.message;
  return 'check failed';
}
