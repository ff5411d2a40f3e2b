export { parseOpenApi, type ParsedOperation, type OperationMonitor, type ParseLimits } from './openapi.operations.ts';
export { OpenApiParser, type OpenApiParserOptions, type SpecInput } from './openapi.parse.pool.ts';
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
