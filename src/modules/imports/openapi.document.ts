import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { validationFailed } from '../../platform/errors.ts';

export type SpecVersion = 'swagger_2.0' | 'openapi_3.0' | 'openapi_3.1';

/** Where a `$ref` that could not be followed stood: the operation that meets it warns with `reason`. */
export const UNRESOLVED = 'x-tocsin-unresolved-ref';
export interface UnresolvedRef {
  [UNRESOLVED]: { ref: string; reason: string };
}

export interface OpenApiDocument {
  version: SpecVersion;
  doc: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Swagger 2.0, OpenAPI 3.0 or 3.1, by the document's own version field; anything else is not a description. */
export function versionOf(doc: Record<string, unknown>): SpecVersion {
  const notSpec = (issue: string) =>
    validationFailed([{ field: 'spec', issue }], 'The document is not an OpenAPI description.');
  if (typeof doc.swagger === 'string' || typeof doc.swagger === 'number') {
    if (String(doc.swagger) !== '2.0') throw notSpec(`swagger version "${String(doc.swagger)}" is not 2.0`);
    if (!isObject(doc.paths)) throw notSpec('a Swagger 2.0 description needs a `paths` object');
    return 'swagger_2.0';
  }
  if (typeof doc.openapi === 'string') {
    const paths = doc.paths;
    if (paths !== undefined && !isObject(paths)) throw notSpec('`paths` must be an object');
    if (/^3\.0\.\d+/.test(doc.openapi)) {
      if (!isObject(paths)) throw notSpec('an OpenAPI 3.0 description needs a `paths` object');
      return 'openapi_3.0';
    }
    if (/^3\.1\.\d+/.test(doc.openapi)) return 'openapi_3.1';
    throw notSpec(`openapi version "${doc.openapi}" is not 3.0.x or 3.1.x`);
  }
  throw notSpec('is not an OpenAPI 3.x or Swagger 2.0 description (no `openapi` or `swagger` version field)');
}

/**
 * The description with its internal `$ref`s followed (a cyclic schema becomes a cycle of objects). A reference
 * to another file or a URL is never read: it is replaced by an `UNRESOLVED` marker before the parser sees the
 * document, as is an internal reference to nothing, so the operations using them can say so in their warnings.
 */
export async function dereferenced(doc: Record<string, unknown>): Promise<OpenApiDocument> {
  const version = versionOf(doc);
  markUnresolvable(doc);
  const resolved = (await $RefParser.dereference(doc, {
    resolve: { external: false, file: false, http: false },
    // Cycles become cycles of objects; readers guard against them (a schema met again on its own path stops).
    dereference: { circular: true },
    mutateInputSchema: true,
  })) as Record<string, unknown>;
  return { version, doc: resolved };
}

/** Replaces, in place, every `$ref` the parser must not (external) or cannot (dangling) follow. */
function markUnresolvable(root: Record<string, unknown>): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    const entries = Array.isArray(node) ? node.entries() : Object.entries(node);
    for (const [key, child] of entries) {
      if (!isObject(child)) {
        if (Array.isArray(child)) stack.push(child);
        continue;
      }
      const ref = child.$ref;
      if (typeof ref === 'string') {
        const reason = !ref.startsWith('#')
          ? 'refers to another document, which is never fetched'
          : resolvePointer(root, ref) === undefined
            ? 'points at nothing in this document'
            : null;
        if (reason) {
          const marker: UnresolvedRef = { [UNRESOLVED]: { ref, reason } };
          (node as Record<string | number, unknown>)[key as string | number] = marker;
          continue;
        }
      }
      stack.push(child);
    }
  }
}

/** RFC 6901 pointer within the document (`#/components/schemas/Pet`), undefined when it leads nowhere. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function unresolvedOf(value: unknown): UnresolvedRef[typeof UNRESOLVED] | null {
  return isObject(value) && isObject(value[UNRESOLVED])
    ? (value[UNRESOLVED] as UnresolvedRef[typeof UNRESOLVED])
    : null;
}
