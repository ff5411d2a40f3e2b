/** Public surface of the check engine. */
export * from './probes/index.ts';
export { checkEngineMigrations } from './engine/engine.migrations.ts';
export {
  createCheckEngineModule,
  ANALYTICS_BUDGET_MS,
  type CheckEngineModule,
  type CheckEngineModuleDeps,
} from './engine/check-engine.module.ts';
export {
  CheckEngine,
  SHEDDING_AFTER_MS,
  type ApplySummary,
  type CheckEngineDeps,
  type CheckPressure,
  type ExecutionsSink,
} from './engine/check.engine.ts';
export type {
  CheckResult,
  ClaimedCheck,
  MonitorTransition,
  TransitionListener,
  WorkSource,
} from './engine/check.types.ts';
export { monitorStatusListener, statusFeedListener } from './engine/transition.listeners.ts';
export { degradedEventsListener, type DegradedAlertGate } from './engine/transition.listeners.ts';
export {
  BatchAnalyticsQueue,
  type BatchAnalytics,
  type CommittedBatch,
  type AnalyticsFailure,
} from './engine/batch-analytics.queue.ts';
export { intelligenceAnalytics, type IntelligenceFeed } from './engine/intelligence.feed.ts';
export { causeOf } from './engine/failure.cause.ts';
export { unconfirmedFailures, type UnconfirmedFailure } from './state/check-state.reads.ts';
export { failingRegionsOf } from './state/failing-regions.ts';
export { CheckRunner, type CheckRunnerOptions } from './runner/check.runner.ts';
export { LocalWorkSource } from './runner/local.source.ts';
export {
  ControlPlaneError,
  RemoteWorkSource,
  type RemoteWorkSourceOptions,
  type RunnerHello,
} from './runner/remote.source.ts';
export { connectToControlPlane, type ControlPlaneConnectOptions } from './runner/control-plane.connect.ts';
export { ClaimWait, type ClaimWaitDeps } from './runner/claim.wait.ts';
export { RunnersService, RUNNER_LIVE_MS, type RegionLiveness } from './runner/runners.service.ts';
export type { Runner } from './runner/runners.repository.ts';
export { HeartbeatsService } from './heartbeats/heartbeats.service.ts';
export { PING_BODY_KEPT_BYTES, type PingInput, type SignalKind } from './heartbeats/heartbeats.service.ts';
export { HeartbeatKeysService, SLUG_PATTERN, type HeartbeatSettings } from './heartbeats/heartbeat-keys.service.ts';
export { nextExpectedPing, scheduleOf } from './probes/index.ts';
export { heartbeatSignalsMigrations } from './heartbeats/heartbeats.migrations.ts';
export type { HeartbeatSignalRow } from './heartbeats/heartbeats.tables.ts';
export {
  ExecutionsRetention,
  ExecutionsService,
  ExecutionsStore,
  executionsMigrations,
  type ExecutionRecord,
  type RecordedExecution,
} from './executions/index.ts';
export {
  DayPrefixesCompactor,
  RollupsService,
  rollupsMigrations,
  LatencySketch,
  DecodedSketches,
  type HistoryBucket,
} from './rollups/index.ts';
export { checkToWire, resultFromWire, type WireResult } from './runner/runner.wire.ts';
