import { parse as parseYaml } from 'yaml';
import { DomainError, validationFailed } from '../../platform/errors.ts';
import { firstDuplicateKey } from './json.duplicate-keys.ts';

/** Limits on a description, so a hostile document is refused promptly rather than parsed at length. */
export const SPEC_LIMITS = {
  /** Text of the description (JSON or YAML), in bytes of UTF-8. */
  textBytes: 10 * 1024 * 1024,
  /** Nesting of objects and arrays. Real descriptions stay far below; deeper is an attack on recursion. */
  depth: 200,
  /** Objects, arrays and values in the whole document (after aliases are expanded). */
  nodes: 3_000_000,
  /** YAML alias uses (`*anchor`): a few are normal, an alias bomb has thousands. */
  yamlAliases: 200,
} as const;

const refuse = (issue: string) => validationFailed([{ field: 'spec', issue }], 'The description could not be read.');

/**
 * The description as a plain object: given as an object, or as JSON or YAML text. Refuses what is too big, too deep,
 * has duplicate keys or expands aliases without bound, with a 422 naming `spec` (never a crash or a long parse).
 */
export function readSpecSource(spec: unknown): Record<string, unknown> {
  const doc = typeof spec === 'string' ? parseText(spec) : spec;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw refuse('must be an OpenAPI description: a JSON object, or JSON or YAML text of one');
  }
  checkShape(doc);
  return doc as Record<string, unknown>;
}

function parseText(text: string): unknown {
  if (Buffer.byteLength(text, 'utf8') > SPEC_LIMITS.textBytes) {
    throw new DomainError('payload_too_large', 'The description is larger than 10 MiB.', [
      { field: 'spec', issue: 'must be at most 10 MiB' },
    ]);
  }
  const trimmed = text.trimStart();
  if (trimmed === '') throw refuse('is empty');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(trimmed);
  return parseYamlText(text);
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw refuse(`is not valid JSON: ${(error as Error).message}`);
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) throw refuse(`has the key "${duplicate.key}" twice in ${duplicate.path}`);
  return value;
}

function parseYamlText(text: string): unknown {
  try {
    return parseYaml(text, {
      maxAliasCount: SPEC_LIMITS.yamlAliases,
      uniqueKeys: true,
      merge: false,
      prettyErrors: false,
      // Timestamps stay text: a description's `example: 2026-01-01` is the text the API documents.
      schema: 'core',
    });
  } catch (error) {
    if (error instanceof RangeError) throw refuse('is nested too deeply to read');
    const message = (error as Error).message.split('\n')[0] ?? 'unreadable';
    if (/alias/i.test(message)) throw refuse(`uses YAML aliases beyond ${SPEC_LIMITS.yamlAliases} (an alias bomb?)`);
    if (/unique|duplicate/i.test(message)) throw refuse(`has a duplicate key: ${message}`);
    throw refuse(`is not valid JSON or YAML: ${message}`);
  }
}

/** Walks the document once without recursion: depth and size within the limits. */
function checkShape(root: object): void {
  const stack: Array<[unknown, number]> = [[root, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > SPEC_LIMITS.nodes) throw refuse(`has more than ${SPEC_LIMITS.nodes} values`);
    if (typeof value !== 'object' || value === null) continue;
    if (depth > SPEC_LIMITS.depth) throw refuse(`is nested deeper than ${SPEC_LIMITS.depth} levels`);
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      else nodes++;
    }
  }
}
