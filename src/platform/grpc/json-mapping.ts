import { resolveTypeName, type MessageDescriptor, type TypeIndex } from './descriptor.files.ts';

/**
 * People write requests and read responses in the proto3 JSON mapping: maps as objects, timestamps as RFC 3339 text,
 * durations as "1.5s", wrappers as bare values, Struct as plain JSON. protobufjs (under @grpc/proto-loader), given
 * descriptors, wants the wire shapes instead: a map is a repeated `{key, value}` entry message and well-known types
 * are ordinary messages. These convert between the two along a message's descriptor, nested messages and repeated
 * fields included (new objects; the input is not changed).
 */
export function mapsToEntries(value: unknown, typeName: string, index: TypeIndex): unknown {
  return walk(value, typeName, index, 'toEntries', 0);
}

export function entriesToMaps(value: unknown, typeName: string, index: TypeIndex): unknown {
  return walk(value, typeName, index, 'toMaps', 0);
}

type Direction = 'toEntries' | 'toMaps';
const MAX_DEPTH = 32;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(value: unknown, typeName: string, index: TypeIndex, direction: Direction, depth: number): unknown {
  const known = WELL_KNOWN[typeName];
  if (known) return direction === 'toEntries' ? known.toWire(value) : known.fromWire(value);
  const message = index.messages.get(typeName);
  if (!message || !isObject(value) || depth > MAX_DEPTH) return value;
  const out: Record<string, unknown> = { ...value };
  for (const field of message.field ?? []) {
    const v = value[field.name];
    if (v === undefined || v === null || !field.typeName) continue;
    const fieldType = resolveTypeName(index, field.typeName, typeName);
    const entry = index.messages.get(fieldType);
    if (entry?.options?.mapEntry) {
      out[field.name] = convertMap(v, entry, fieldType, index, direction, depth);
    } else if (field.type === 'TYPE_MESSAGE') {
      out[field.name] = Array.isArray(v)
        ? v.map((item) => walk(item, fieldType, index, direction, depth + 1))
        : walk(v, fieldType, index, direction, depth + 1);
    }
  }
  return out;
}

function convertMap(
  value: unknown,
  entry: MessageDescriptor,
  entryType: string,
  index: TypeIndex,
  direction: Direction,
  depth: number,
): unknown {
  const valueField = entry.field.find((f) => f.name === 'value');
  const valueType =
    valueField?.type === 'TYPE_MESSAGE' && valueField.typeName
      ? resolveTypeName(index, valueField.typeName, entryType)
      : null;
  const inner = (v: unknown) => (valueType ? walk(v, valueType, index, direction, depth + 1) : v);
  if (direction === 'toEntries' && isObject(value)) {
    return Object.entries(value).map(([key, v]) => ({ key, value: inner(v) }));
  }
  if (direction === 'toMaps' && Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const item of value) if (isObject(item)) out[String(item.key as string | number)] = inner(item.value);
    return out;
  }
  return value;
}

interface WellKnown {
  toWire(json: unknown): unknown;
  fromWire(wire: unknown): unknown;
}

const wrapper: WellKnown = {
  toWire: (json) => (isObject(json) ? json : { value: json }),
  fromWire: (wire) => (isObject(wire) ? wire.value : wire),
};

const timestamp: WellKnown = {
  toWire(json) {
    if (typeof json !== 'string') return json;
    const match = /\.(\d{1,9})/.exec(json);
    const ms = Date.parse(json);
    if (Number.isNaN(ms)) return json;
    const nanos = match ? Number(match[1]!.padEnd(9, '0')) : 0;
    return { seconds: String(Math.floor(ms / 1000)), nanos };
  },
  fromWire(wire) {
    if (!isObject(wire)) return wire;
    const ms = Number(wire.seconds ?? 0) * 1000 + Math.floor(Number(wire.nanos ?? 0) / 1e6);
    return new Date(ms).toISOString();
  },
};

const duration: WellKnown = {
  toWire(json) {
    const match = typeof json === 'string' ? /^(-?)(\d+)(?:\.(\d{1,9}))?s$/.exec(json) : null;
    if (!match) return json;
    const sign = match[1] === '-' ? -1 : 1;
    return { seconds: String(sign * Number(match[2])), nanos: sign * Number((match[3] ?? '').padEnd(9, '0')) };
  },
  fromWire(wire) {
    if (!isObject(wire)) return wire;
    const seconds = Number(wire.seconds ?? 0);
    const nanos = Math.abs(Number(wire.nanos ?? 0));
    return nanos === 0 ? `${seconds}s` : `${seconds}.${String(nanos).padStart(9, '0').replace(/0+$/, '')}s`;
  },
};

function valueToWire(json: unknown): unknown {
  if (json === null || json === undefined) return { null_value: 'NULL_VALUE' };
  if (typeof json === 'number') return { number_value: json };
  if (typeof json === 'string') return { string_value: json };
  if (typeof json === 'boolean') return { bool_value: json };
  if (Array.isArray(json)) return { list_value: { values: json.map(valueToWire) } };
  return { struct_value: structToWire(json) };
}

function structToWire(json: unknown): unknown {
  if (!isObject(json)) return json;
  return { fields: Object.entries(json).map(([key, v]) => ({ key, value: valueToWire(v) })) };
}

function valueFromWire(wire: unknown): unknown {
  if (!isObject(wire)) return wire;
  const kind = typeof wire.kind === 'string' ? wire.kind : Object.keys(wire).find((k) => k.endsWith('_value'));
  const v = kind === undefined ? undefined : wire[kind];
  if (kind === 'struct_value') return structFromWire(v);
  if (kind === 'list_value') return isObject(v) && Array.isArray(v.values) ? v.values.map(valueFromWire) : [];
  if (kind === 'null_value' || kind === undefined) return null;
  return v;
}

function structFromWire(wire: unknown): unknown {
  if (!isObject(wire) || !Array.isArray(wire.fields)) return {};
  const out: Record<string, unknown> = {};
  for (const entry of wire.fields) {
    if (isObject(entry)) out[String(entry.key as string)] = valueFromWire(entry.value);
  }
  return out;
}

const WELL_KNOWN: Record<string, WellKnown> = {
  '.google.protobuf.Timestamp': timestamp,
  '.google.protobuf.Duration': duration,
  '.google.protobuf.DoubleValue': wrapper,
  '.google.protobuf.FloatValue': wrapper,
  '.google.protobuf.Int64Value': wrapper,
  '.google.protobuf.UInt64Value': wrapper,
  '.google.protobuf.Int32Value': wrapper,
  '.google.protobuf.UInt32Value': wrapper,
  '.google.protobuf.BoolValue': wrapper,
  '.google.protobuf.StringValue': wrapper,
  '.google.protobuf.BytesValue': wrapper,
  '.google.protobuf.Struct': { toWire: structToWire, fromWire: structFromWire },
  '.google.protobuf.Value': { toWire: valueToWire, fromWire: valueFromWire },
  '.google.protobuf.ListValue': {
    toWire: (json) => (Array.isArray(json) ? { values: json.map(valueToWire) } : json),
    fromWire: (wire) => (isObject(wire) && Array.isArray(wire.values) ? wire.values.map(valueFromWire) : []),
  },
  '.google.protobuf.FieldMask': {
    toWire: (json) => (typeof json === 'string' ? { paths: json === '' ? [] : json.split(',') } : json),
    fromWire: (wire) => (isObject(wire) && Array.isArray(wire.paths) ? wire.paths.join(',') : wire),
  },
};
