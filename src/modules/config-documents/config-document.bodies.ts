import { validationFailed } from '../../platform/errors.ts';
import { DOCUMENT_REFERENCES, holders, type ConfigDocumentKind, type ConfigItem } from '../config-format/index.ts';

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The API body of a document item: without its key, each reference by key turned into the id the key stands for and
 * put under the API's field name. `lenient`: a key without an id stays as it is (for an item as last applied, whose
 * references may since be gone; only its field names matter then).
 */
export function toApiBody(
  kind: ConfigDocumentKind,
  item: ConfigItem,
  ids: ReadonlyMap<ConfigDocumentKind, ReadonlyMap<string, string>>,
  lenient = false,
): Body {
  const { key: _key, ...body } = structuredClone(item);
  for (const reference of DOCUMENT_REFERENCES) {
    if (reference.kind !== kind) continue;
    const known = ids.get(reference.names)!;
    const idOf = (key: unknown) => {
      const id = typeof key === 'string' ? known.get(key) : undefined;
      if (id !== undefined || lenient) return id ?? key;
      // The document's own check refuses unknown keys and apply writes the named kinds first: this is a defect.
      throw new Error(`config apply: ${kind} names ${reference.names} "${String(key)}" before it has an id`);
    };
    for (const holder of holders(body, reference.parent)) {
      if (!(reference.field in holder)) continue;
      const value = holder[reference.field];
      delete holder[reference.field];
      holder[reference.apiField] =
        value === null ? null : reference.list ? (value as unknown[]).map(idOf) : idOf(value);
    }
  }
  return body;
}

/**
 * The PATCH that takes a record from the item as last applied to the item now: every field of the new body (the
 * API's PATCH replaces what it is given), each field the document no longer gives back to its default (null, or an
 * empty list), and a removed `config` key as null (config merges key by key). A fixed field that changes is refused.
 */
export function updatePatch(
  kind: ConfigDocumentKind,
  before: Body,
  after: Body,
  fixed: readonly string[],
  at: string,
): Body {
  const patch: Body = {};
  for (const [name, value] of Object.entries(after)) {
    if (!fixed.includes(name)) {
      patch[name] = value;
      continue;
    }
    if (JSON.stringify(before[name] ?? null) !== JSON.stringify(value ?? null))
      throw validationFailed([
        {
          field: `document.${at}.${name}`,
          issue: `cannot change once the ${kind.replace('_', ' ')} item is made: give it a new key (prune deletes the old one)`,
        },
      ]);
  }
  for (const [name, value] of Object.entries(before)) {
    if (name in after || fixed.includes(name)) continue;
    patch[name] = Array.isArray(value) ? [] : null;
  }
  if (isObject(before.config)) {
    const config: Body = isObject(patch.config) ? { ...patch.config } : {};
    for (const name of Object.keys(before.config)) if (!(name in config)) config[name] = null;
    if (Object.keys(config).length > 0) patch.config = config;
  }
  return patch;
}
