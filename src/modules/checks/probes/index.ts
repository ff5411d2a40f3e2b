/**
 * Public surface of the probes (the check engine's `index.ts` re-exports what it needs from here).
 *
 * - `createProbeRegistry()` once per process/runner; `registry.run(target, ctx)` (or `runProbe`) never throws.
 * - http timings: phases (dns/connect/tls/ttfb/download) are those of the final hop after redirects;
 *   `total_ms` = `duration_ms` covers all hops. `dns_ms` is null for IP-literal hosts, `tls_ms` null for plain http.
 * - `ctx.allowPrivateTargets=false` refuses every special-purpose address (platform/net: the IANA registries, IPv6
 *   forms that embed IPv4) after resolution, on every hop (and for a dns probe's explicit `resolver`). Each check
 *   resolves a name once (through `ctx.resolver`, the system's by default) and connects to the vetted address.
 * - `probe.run.ts` is the one timeout/abort/catch frame of the network probes.
 * - `ctx.tlsCa` (PEM) adds a trusted CA for http/tls/grpc/smtp/websocket: for tests (local CA) and private-CA self-hosting.
 * - http/tls `config.ca_certificate` (PEM) adds a monitor's own CAs to what the process trusts (never replaces it);
 *   `config.verify_tls: false` skips trust (tls: chain and name are reported, dates still judged). One secure
 *   context per distinct CA set (`secure-context.cache.ts`).
 */
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
  HeartbeatRunState,
  ProbeType,
} from './probe.contract.ts';
export { PROBE_TYPES } from './probe.contract.ts';
export { createProbeRegistry, runProbe, type ProbeRegistry } from './probe.registry.ts';
export { isPrivateAddress } from './probe.net.ts';
export { heartbeatGraceMs } from './heartbeat/heartbeat.probe.ts';
export { heartbeatDeadline, nextExpectedPing, scheduleOf } from './heartbeat/heartbeat.probe.ts';
export { DNS_RECORD_TYPES, type DnsRecordType } from './dns/dns.probe.ts';
export { HTTP_BODY_CAP, HTTP_MAX_REDIRECTS } from './http/http.probe.ts';
export { createDomainProbe, IANA_RDAP_BOOTSTRAP_URL } from './domain/domain.probe.ts';
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
