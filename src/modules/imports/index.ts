export { parseOpenApi, type ParsedOperation, type OperationMonitor } from './openapi.operations.ts';
export { planImport, type ImportDefaults, type ImportableOperation, type PlannedMonitor } from './openapi.import.ts';
export { SPEC_LIMITS } from './openapi.source.ts';
