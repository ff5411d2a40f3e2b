/** Public surface of execution storage. */
export type { ExecutionDetails, ExecutionRecord, ExecutionTimings } from './execution.types.ts';
export { keptDetails } from './execution.types.ts';
export { ExecutionsStore } from './executions.store.ts';
export {
  ExecutionsService,
  type ExecutionsServiceDeps,
  type ExecutionListQuery,
  type ExecutionPage,
  type MonitorLookup,
  type RecordedExecution,
} from './execution.service.ts';
export { ExecutionsRetention, type ExecutionsRetentionDeps } from './executions.retention.ts';
export { encodeExecutionId, decodeExecutionId } from './execution.ids.ts';
export { executionsMigrations } from './executions.migrations.ts';
