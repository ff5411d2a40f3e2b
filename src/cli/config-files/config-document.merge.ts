import { CONFIG_DOCUMENT_KINDS, type ConfigDocumentKind } from '../../modules/config-format/index.ts';
import type { ConfigProblem, ParsedSource } from './config-source.parse.ts';

const KINDS = new Set<string>(CONFIG_DOCUMENT_KINDS);

/** The files of a folder as one document, and where each part of it came from. */
export interface MergedDocument {
  value: Record<string, unknown>;
  /** The place of a field of the merged document (`monitors[12].config.timeout_ms`) in the file it came from. */
  locate(field: string, point?: 'value' | 'key'): ConfigProblem & { item: string | null };
}

/** `monitors[12].config.timeout_ms` → ['monitors', 12, 'config', 'timeout_ms']. */
export function fieldPath(field: string): Array<string | number> {
  const path: Array<string | number> = [];
  for (const match of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    path.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  }
  return path;
}

/**
 * Each file says `version: 1`; the kinds' lists are joined in file order. A kind given as something other than a
 * list is kept as the first file gave it, for the schema to refuse there.
 */
export function mergeSources(parsed: ParsedSource[]): { merged: MergedDocument; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const value: Record<string, unknown> = { version: 1 };
  const topOrigin = new Map<string, ParsedSource>();
  const itemOrigin = new Map<ConfigDocumentKind, Array<{ source: ParsedSource; index: number }>>();
  for (const source of parsed) {
    const version = source.value.version;
    if (version !== 1) {
      const where = source.locate(version === undefined ? [] : ['version']);
      problems.push({
        file: source.source.name,
        ...where,
        message: version === undefined ? 'version is required: version: 1' : 'version must be 1',
      });
    }
    for (const [name, part] of Object.entries(source.value)) {
      if (name === 'version') continue;
      if (KINDS.has(name) && Array.isArray(part) && (value[name] === undefined || Array.isArray(value[name]))) {
        const kind = name as ConfigDocumentKind;
        const list = (value[kind] as unknown[] | undefined) ?? [];
        const origins = itemOrigin.get(kind) ?? [];
        part.forEach((item, index) => {
          list.push(item);
          origins.push({ source, index });
        });
        value[kind] = list;
        itemOrigin.set(kind, origins);
        topOrigin.set(kind, topOrigin.get(kind) ?? source);
      } else if (!topOrigin.has(name)) {
        value[name] = part;
        topOrigin.set(name, source);
      }
    }
  }
  const fallback = parsed[0];
  const locate = (field: string, point: 'value' | 'key' = 'value') => {
    const path = fieldPath(field);
    const [head, index, ...rest] = path;
    const origin =
      typeof head === 'string' && typeof index === 'number'
        ? itemOrigin.get(head as ConfigDocumentKind)?.[index]
        : undefined;
    if (origin) {
      const item = (origin.source.value[head as string] as unknown[])[origin.index];
      const key = typeof item === 'object' && item !== null ? (item as { key?: unknown }).key : undefined;
      return {
        file: origin.source.source.name,
        ...origin.source.locate([head as string, origin.index, ...rest], point),
        item: `${head as string} ${typeof key === 'string' ? `"${key}"` : `#${origin.index + 1}`}`,
        message: '',
      };
    }
    const source = (typeof head === 'string' ? topOrigin.get(head) : undefined) ?? fallback;
    if (!source) return { file: '', line: 1, column: 1, item: null, message: '' };
    return { file: source.source.name, ...source.locate(path, point), item: null, message: '' };
  };
  return { merged: { value, locate }, problems };
}
