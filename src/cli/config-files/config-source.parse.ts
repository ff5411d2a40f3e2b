import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type Pair,
} from 'yaml';
import type { ConfigSource } from './config-source.read.ts';

/** A problem at a place in a file; line and column count from 1. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface ParsedSource {
  source: ConfigSource;
  value: Record<string, unknown>;
  /**
   * The place of the YAML node at a path (keys and list indexes), or of the nearest one above it that exists;
   * `key`: of the last key itself rather than its value (for a field that should not be there).
   */
  locate(path: ReadonlyArray<string | number>, point?: 'value' | 'key'): { line: number; column: number };
}

/**
 * An alias may be used this many times in one file. Anchors and aliases are fine; a "billion laughs" document, whose
 * aliases expand to millions of nodes, is refused at once instead of filling memory.
 */
const MAX_ALIAS_COUNT = 1_000;

/** Parses one YAML or JSON file (JSON is YAML): a mapping, or every problem with its place. */
export function parseSource(source: ConfigSource): { parsed: ParsedSource | null; problems: ConfigProblem[] } {
  const lines = new LineCounter();
  const document = parseDocument(source.text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const problems: ConfigProblem[] = document.errors.map((error) => ({
    file: source.name,
    ...at(error.pos[0]),
    message: issueOf(error.code, error.message),
  }));
  if (problems.length > 0) return { parsed: null, problems };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      parsed: null,
      problems: [
        {
          file: source.name,
          line: 1,
          column: 1,
          message: /Excessive alias count/.test(message)
            ? `aliases expand to too many nodes (more than ${MAX_ALIAS_COUNT} uses of an alias): refused`
            : message,
        },
      ],
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      parsed: null,
      problems: [{ file: source.name, line: 1, column: 1, message: 'must be a mapping with version: 1 and lists' }],
    };
  }
  return {
    parsed: {
      source,
      value: value as Record<string, unknown>,
      locate: (path, point = 'value') => at(nodeAt(document, path, point).range?.[0] ?? 0),
    },
    problems: [],
  };
}

function issueOf(code: string, message: string): string {
  if (code === 'DUPLICATE_KEY') return 'this key is already used in the same mapping';
  if (code === 'TAB_AS_INDENT') return 'tabs are not allowed as indentation: indent with spaces';
  if (code === 'MULTIPLE_DOCS') return 'holds several YAML documents (---): one per file';
  return message.replace(/ at line \d+, column \d+:?[\s\S]*$/, '');
}

/** The deepest node along `path`: the value at it, or (when it is absent) the mapping or list that should hold it. */
function nodeAt(document: Document, path: ReadonlyArray<string | number>, point: 'value' | 'key'): Node {
  let node = document.contents as Node | null;
  if (!node) return document.contents as unknown as Node;
  for (const [i, segment] of path.entries()) {
    if (isAlias(node)) node = (node.resolve(document) as Node | undefined) ?? node;
    let next: Node | null | undefined;
    if (isMap(node)) {
      const pair: Pair<unknown, unknown> | undefined = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment),
      );
      const wantsKey = point === 'key' && i === path.length - 1;
      // An empty value (`key:`) has no place of its own: its key has.
      if (pair) next = !wantsKey && pair.value ? (pair.value as Node) : (pair.key as Node);
    } else if (isSeq(node) && typeof segment === 'number') {
      next = node.items[segment] as Node | undefined;
    }
    if (!next) break;
    node = next;
  }
  return node;
}
