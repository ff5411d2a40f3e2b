/** Public surface of the probes (the check engine's `index.ts` re-exports what it needs from here). */
export type {
  AssertionResult,
  CertExpiringEvent,
  Observation,
  Probe,
  ProbeContext,
  ProbeError,
  ProbeErrorCode,
  ProbeTarget,
  ProbeTimings,
  ProbeType,
} from './probe.contract.ts';
export { PROBE_TYPES } from './probe.contract.ts';
export { createProbeRegistry, runProbe, type ProbeRegistry } from './probe.registry.ts';
export { isPrivateAddress } from './probe.net.ts';
export { heartbeatGraceMs } from './heartbeat/heartbeat.probe.ts';
export { DNS_RECORD_TYPES, type DnsRecordType } from './dns/dns.probe.ts';
export { HTTP_BODY_CAP, HTTP_MAX_REDIRECTS } from './http/http.probe.ts';
export {
  evaluateAssertions,
  validateAssertion,
  validateAssertions,
  assertionNeedsBody,
  ASSERTION_TYPES,
  type Assertion,
  type AssertedResponse,
  type AssertionIssue,
  type EvaluatedAssertion,
} from '../assertions/index.ts';
