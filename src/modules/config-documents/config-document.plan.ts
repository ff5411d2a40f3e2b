import { createHash } from 'node:crypto';
import {
  CONFIG_DOCUMENT_KINDS,
  type ConfigDocument,
  type ConfigDocumentKind,
  type ConfigItem,
} from '../config-format/index.ts';
import type { ManagedItem } from './config-items.repository.ts';

export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged';

/** A field that changes: its dotted path in the item and its value before and after (secrets as `(secret)`). */
export interface PlanChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface PlanEntry {
  kind: ConfigDocumentKind;
  key: string;
  action: PlanAction;
  /** The record the key stands for (null until created). */
  itemId: string | null;
  changes: PlanChange[];
}

export interface DocumentPlan {
  entries: PlanEntry[];
  /** Managed items the document no longer lists, left as they are because prune is off. */
  kept: Array<{ kind: ConfigDocumentKind; key: string; itemId: string }>;
}

/** What a secret field holds in a stored or compared item: never the value, a hash that shows when it changed. */
const SECRET_PREFIX = 'secret:sha256:';
/**
 * What an adopted record's secret field holds until the next apply (export cannot read a secret back): equal to any
 * secret the document gives, so export then plan shows nothing; the next apply that changes the item stores the hash.
 */
export const ADOPTED_SECRET = 'secret:adopted';

/**
 * The item as stored and compared: fields named in `secretFields` (`config.url`, paths below the item) hold a hash of
 * their value. The document is hashed per organization so equal secrets of two organizations do not look alike.
 */
export function comparable(item: ConfigItem, secretFields: readonly string[], salt: string): ConfigItem {
  if (secretFields.length === 0) return item;
  const copy = structuredClone(item);
  for (const field of new Set(secretFields)) {
    const path = field.split('.');
    let holder: Record<string, unknown> | undefined = copy;
    for (const part of path.slice(0, -1)) {
      const next: unknown = holder?.[part];
      holder =
        typeof next === 'object' && next !== null && !Array.isArray(next)
          ? (next as Record<string, unknown>)
          : undefined;
    }
    const last = path[path.length - 1]!;
    if (holder && typeof holder[last] === 'string')
      holder[last] =
        SECRET_PREFIX +
        createHash('sha256')
          .update(`${salt}\0${holder[last] as string}`)
          .digest('hex');
  }
  return copy;
}

/** The dotted paths of an item (as stored) whose values are secrets: compared as secrets whatever the document says. */
export function secretPathsOf(item: unknown, prefix = ''): string[] {
  if (!isPlainObject(item)) return [];
  return Object.entries(item).flatMap(([name, value]) => {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    if (typeof value === 'string' && (value.startsWith(SECRET_PREFIX) || value === ADOPTED_SECRET)) return [path];
    return secretPathsOf(value, path);
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shown(value: unknown): unknown {
  return typeof value === 'string' && (value.startsWith(SECRET_PREFIX) || value === ADOPTED_SECRET)
    ? '(secret)'
    : (value ?? null);
}

/** Field by field; objects are compared key by key (`config.timeout_ms`), lists and scalars whole. */
export function fieldChanges(before: unknown, after: unknown, prefix = ''): PlanChange[] {
  // An object made or removed is shown field by field too (a new monitor's `config.timeout_ms`).
  if (before === undefined && isPlainObject(after)) before = {};
  if (after === undefined && isPlainObject(before)) after = {};
  if (isPlainObject(before) && isPlainObject(after)) {
    const changes: PlanChange[] = [];
    for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (prefix === '' && name === 'key') continue;
      changes.push(...fieldChanges(before[name], after[name], prefix === '' ? name : `${prefix}.${name}`));
    }
    return changes;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (before === ADOPTED_SECRET && typeof after === 'string' && after.startsWith(SECRET_PREFIX)) return [];
  const beforeShown = shown(before);
  const afterShown = shown(after);
  // A secret that changed shows as changed without either value.
  return [
    {
      field: prefix,
      before: beforeShown,
      after: afterShown === '(secret)' && beforeShown === '(secret)' ? '(secret, changed)' : afterShown,
    },
  ];
}

/**
 * What apply would do, per key: create what is new, update what differs from what was last applied, leave the rest,
 * and (with prune) delete managed items the document no longer lists. Never touches unmanaged records.
 */
export function planDocument(
  document: ConfigDocument,
  managed: readonly ManagedItem[],
  prune: boolean,
  compare: (item: ConfigItem, kind: ConfigDocumentKind, index: number, alsoSecret?: readonly string[]) => ConfigItem,
): DocumentPlan {
  const entries: PlanEntry[] = [];
  const kept: DocumentPlan['kept'] = [];
  for (const kind of CONFIG_DOCUMENT_KINDS) {
    const current = new Map(managed.filter((m) => m.kind === kind).map((m) => [m.key, m]));
    const listed = new Set<string>();
    (document[kind] ?? []).forEach((item, index) => {
      listed.add(item.key);
      const was = current.get(item.key);
      if (!was) {
        entries.push({
          kind,
          key: item.key,
          action: 'create',
          itemId: null,
          changes: fieldChanges({}, compare(item, kind, index)),
        });
        return;
      }
      // A field stored as a secret stays one (an exported file may give its value plainly): compared by its hash.
      const changes = fieldChanges(was.applied, compare(item, kind, index, secretPathsOf(was.applied)));
      entries.push({
        kind,
        key: item.key,
        action: changes.length === 0 ? 'unchanged' : 'update',
        itemId: was.itemId,
        changes,
      });
    });
    for (const [key, was] of current) {
      if (listed.has(key)) continue;
      if (prune)
        entries.push({ kind, key, action: 'delete', itemId: was.itemId, changes: fieldChanges(was.applied, {}) });
      else kept.push({ kind, key, itemId: was.itemId });
    }
  }
  return { entries, kept };
}
