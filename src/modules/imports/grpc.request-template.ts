import {
  resolveTypeName,
  type FieldDescriptor,
  type MessageDescriptor,
  type TypeIndex,
} from '../../platform/grpc/index.ts';

/** Messages nested deeper than this are left as `{}` (a template is a starting point, not a full tree). */
const MAX_DEPTH = 6;

/** Well-known types have their own JSON forms (proto3 JSON mapping). */
const WELL_KNOWN: Record<string, () => unknown> = {
  '.google.protobuf.Timestamp': () => '1970-01-01T00:00:00Z',
  '.google.protobuf.Duration': () => '0s',
  '.google.protobuf.Empty': () => ({}),
  '.google.protobuf.Struct': () => ({}),
  '.google.protobuf.Value': () => null,
  '.google.protobuf.ListValue': () => [],
  '.google.protobuf.FieldMask': () => '',
  '.google.protobuf.DoubleValue': () => 0,
  '.google.protobuf.FloatValue': () => 0,
  '.google.protobuf.Int64Value': () => '0',
  '.google.protobuf.UInt64Value': () => '0',
  '.google.protobuf.Int32Value': () => 0,
  '.google.protobuf.UInt32Value': () => 0,
  '.google.protobuf.BoolValue': () => false,
  '.google.protobuf.StringValue': () => '',
  '.google.protobuf.BytesValue': () => '',
};

/**
 * A request object for the message `typeName` (`.pkg.Message`), every field at its zero value, with field names as
 * the .proto file spells them: nested messages filled in, the first value of enums by name, one element for repeated
 * fields, one `"key"` for maps, the first member of each oneof only, well-known types in their JSON form. A message
 * that contains itself stops at `{}`.
 */
export function requestTemplate(typeName: string, types: TypeIndex): Record<string, unknown> {
  const full = resolveTypeName(types, typeName, '');
  const message = types.messages.get(full);
  if (!message) return {};
  return messageTemplate(full, message, types, new Set([full]), 0);
}

function messageTemplate(
  scope: string,
  message: MessageDescriptor,
  types: TypeIndex,
  path: Set<string>,
  depth: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const filledOneofs = new Set<number>();
  for (const field of message.field ?? []) {
    const oneof = field.oneofIndex;
    if (oneof !== undefined && isRealOneof(message, oneof)) {
      if (filledOneofs.has(oneof)) continue;
      filledOneofs.add(oneof);
    }
    out[field.name] = fieldTemplate(scope, field, types, path, depth);
  }
  return out;
}

/** proto3 `optional` fields sit in a synthetic oneof of their own (named `_<field>`): not a choice to make. */
function isRealOneof(message: MessageDescriptor, index: number): boolean {
  const name = message.oneofDecl?.[index]?.name ?? '';
  const members = (message.field ?? []).filter((f) => f.oneofIndex === index);
  return !(name.startsWith('_') && members.length === 1);
}

function fieldTemplate(
  scope: string,
  field: FieldDescriptor,
  types: TypeIndex,
  path: Set<string>,
  depth: number,
): unknown {
  const typeName = field.typeName ? resolveTypeName(types, field.typeName, scope) : '';
  const entry = types.messages.get(typeName);
  if (entry?.options?.mapEntry) {
    const value = entry.field.find((f) => f.name === 'value');
    return { key: value ? singleTemplate(typeName, value, types, path, depth + 1) : null };
  }
  const single = singleTemplate(scope, field, types, path, depth);
  return field.label === 'LABEL_REPEATED' ? [single] : single;
}

function singleTemplate(
  scope: string,
  field: FieldDescriptor,
  types: TypeIndex,
  path: Set<string>,
  depth: number,
): unknown {
  const name = field.typeName ? resolveTypeName(types, field.typeName, scope) : '';
  switch (field.type) {
    case 'TYPE_MESSAGE':
    case 'TYPE_GROUP': {
      const known = WELL_KNOWN[name];
      if (known) return known();
      if (name === '.google.protobuf.Any') return { '@type': 'type.googleapis.com/google.protobuf.Empty' };
      const message = types.messages.get(name);
      if (!message || path.has(name) || depth >= MAX_DEPTH) return {};
      path.add(name);
      try {
        return messageTemplate(name, message, types, path, depth + 1);
      } finally {
        path.delete(name);
      }
    }
    case 'TYPE_ENUM':
      return types.enums.get(name)?.value?.[0]?.name ?? 0;
    case 'TYPE_STRING':
    case 'TYPE_BYTES':
      return '';
    case 'TYPE_BOOL':
      return false;
    case 'TYPE_INT64':
    case 'TYPE_UINT64':
    case 'TYPE_SINT64':
    case 'TYPE_FIXED64':
    case 'TYPE_SFIXED64':
      // 64-bit integers are strings in JSON (proto3 JSON mapping): no precision lost.
      return '0';
    default:
      return 0;
  }
}
