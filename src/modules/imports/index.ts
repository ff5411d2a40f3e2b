export { parseOpenApi, type ParsedOperation, type OperationMonitor } from './openapi.operations.ts';
export { planImport, type ImportDefaults, type ImportableOperation, type PlannedMonitor } from './openapi.import.ts';
export { SPEC_LIMITS } from './openapi.source.ts';
export {
  GrpcDiscovery,
  parseGrpcTarget,
  type GrpcDiscoverInput,
  type DiscoveredService,
  type DiscoveredMethod,
} from './grpc.discover.ts';
export { requestTemplate } from './grpc.request-template.ts';
