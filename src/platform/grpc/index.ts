export { channelCredentials, channelTarget, type GrpcEndpoint } from './grpc.channel.ts';
export {
  decodeProtoFile,
  descriptorSetOf,
  indexTypes,
  resolveTypeName,
  type ProtoFile,
  type MessageDescriptor,
  type FieldDescriptor,
  type EnumDescriptor,
  type TypeIndex,
} from './descriptor.files.ts';
export { mapsToEntries, entriesToMaps } from './json-mapping.ts';
export { reflectServer, ReflectionError, type ServerReflection, type ReflectionFailure } from './reflection.client.ts';
export { reflectionPackage, type ReflectionVersion } from './reflection.proto.ts';
