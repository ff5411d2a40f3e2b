import descriptor from 'protobufjs/ext/descriptor/index.js';

/** A .proto file as reflection sends it, decoded (enum values as their names). */
export interface ProtoFile {
  name: string;
  package: string;
  dependency: string[];
  messageType: MessageDescriptor[];
  enumType: EnumDescriptor[];
  service: Array<{
    name: string;
    method: Array<{
      name: string;
      inputType: string;
      outputType: string;
      clientStreaming?: boolean;
      serverStreaming?: boolean;
    }>;
  }>;
}

export interface FieldDescriptor {
  name: string;
  number: number;
  label: string;
  type: string;
  typeName?: string;
  oneofIndex?: number;
  jsonName?: string;
}

export interface MessageDescriptor {
  name: string;
  field: FieldDescriptor[];
  nestedType: MessageDescriptor[];
  enumType: EnumDescriptor[];
  oneofDecl: Array<{ name: string }>;
  options?: { mapEntry?: boolean };
}

export interface EnumDescriptor {
  name: string;
  value: Array<{ name: string; number: number }>;
}

/** Decodes one serialized FileDescriptorProto. */
export function decodeProtoFile(bytes: Uint8Array): ProtoFile {
  const message = descriptor.FileDescriptorProto.decode(bytes);
  const file = descriptor.FileDescriptorProto.toObject(message, { enums: String, arrays: true, defaults: false });
  return file as ProtoFile;
}

/**
 * The FileDescriptorSet made of these files (field 1, repeated, length-delimited), for
 * `@grpc/proto-loader`'s `loadFileDescriptorSetFromBuffer`.
 */
export function descriptorSetOf(files: readonly Uint8Array[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) parts.push(Buffer.from([0x0a]), varint(file.length), Buffer.from(file));
  return Buffer.concat(parts);
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** Every message and enum of the files by full name (`.pkg.Outer.Inner`, as field type names spell them). */
export interface TypeIndex {
  messages: Map<string, MessageDescriptor>;
  enums: Map<string, EnumDescriptor>;
}

export function indexTypes(files: readonly ProtoFile[]): TypeIndex {
  const index: TypeIndex = { messages: new Map(), enums: new Map() };
  const addMessages = (scope: string, messages: readonly MessageDescriptor[]) => {
    for (const m of messages) {
      const full = `${scope}.${m.name}`;
      index.messages.set(full, m);
      for (const e of m.enumType ?? []) index.enums.set(`${full}.${e.name}`, e);
      addMessages(full, m.nestedType ?? []);
    }
  };
  for (const file of files) {
    const scope = file.package ? `.${file.package}` : '';
    for (const e of file.enumType ?? []) index.enums.set(`${scope}.${e.name}`, e);
    addMessages(scope, file.messageType ?? []);
  }
  return index;
}

/**
 * The full name (`.pkg.Type`) a field's type name means where it is used: protoc writes full names, while other
 * generators (protobufjs) write them relative to the enclosing message, resolved the way .proto scoping does
 * (innermost scope first). Unknown names come back as if they were full.
 */
export function resolveTypeName(index: TypeIndex, name: string, scope: string): string {
  if (name.startsWith('.')) return name;
  for (let s = scope; s !== ''; s = s.slice(0, Math.max(0, s.lastIndexOf('.')))) {
    const candidate = `${s}.${name}`;
    if (index.messages.has(candidate) || index.enums.has(candidate)) return candidate;
  }
  return `.${name}`;
}
