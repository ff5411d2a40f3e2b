/** Public surface of execution storage. */
export type { ExecutionRecord, ExecutionTimings } from './execution.types.ts';
export { ExecutionsStore } from './executions.store.ts';
