import type { ServiceContext } from '../auth/index.ts';
import { withDatabase } from '../auth/index.ts';
import { PrecompiledQueries } from '../../platform/db/index.ts';
import { DomainError, validationFailed, type ErrorDetail } from '../../platform/errors.ts';
import { toApiBody, updatePatch } from './config-document.bodies.ts';
import {
  ADOPTED_SECRET,
  comparable,
  planDocument,
  secretPathsOf,
  type DocumentPlan,
  type PlanEntry,
} from './config-document.plan.ts';
import {
  CONFIG_DOCUMENT_KINDS,
  documentKeyProblems,
  DOCUMENT_REFERENCES,
  type ConfigDocument,
  type ConfigDocumentKind,
  type ConfigItem,
} from '../config-format/index.ts';
import { ConfigItemsRepository } from './config-items.repository.ts';

/** How apply changes the records of one kind: the kind's own service verbs, composed in main.ts. */
export interface ConfigKindPort {
  create(ctx: ServiceContext, body: Record<string, unknown>): Promise<string>;
  update(ctx: ServiceContext, id: string, patch: Record<string, unknown>): Promise<void>;
  remove(ctx: ServiceContext, id: string): Promise<void>;
  /** Whether the record is one of the caller's (what adopting it requires). */
  exists(ctx: ServiceContext, id: string): Promise<boolean>;
  /** Fields the API cannot change once made (a monitor's `type`): a change is refused, not applied. */
  readonly fixed: readonly string[];
}

export interface AdoptInput {
  document: ConfigDocument;
  /** The records the document's items stand for (export lists the unmanaged ones it wrote). */
  items: ReadonlyArray<{ kind: ConfigDocumentKind; key: string; itemId: string }>;
  /** Fields holding secrets export could not read back (`destinations[0].config.url`). */
  secretFields: readonly string[];
}

export type ConfigKindPorts = Record<ConfigDocumentKind, ConfigKindPort>;

export interface DocumentInput {
  document: ConfigDocument;
  prune: boolean;
  /** Fields of the document whose values are secrets (`destinations[0].config.url`): stored and shown as hashes. */
  secretFields: readonly string[];
}

/** Configuration as code on the server (DECISIONS §19): plan, and apply in one transaction. */
export class ConfigDocumentsService {
  private readonly ports: ConfigKindPorts;
  /** The managed-key reads every record answer makes, compiled once per shape. */
  private readonly queries = new PrecompiledQueries();
  constructor(ports: ConfigKindPorts) {
    this.ports = ports;
  }

  /** What apply would do now; changes nothing. */
  async plan(ctx: ServiceContext, input: DocumentInput): Promise<DocumentPlan> {
    checkDocument(input.document);
    const managed = await new ConfigItemsRepository(ctx.db).list(ctx.actor.organizationId);
    return planDocument(input.document, managed, input.prune, comparer(input, ctx.actor.organizationId));
  }

  /**
   * Plans and applies under the organization's lock in one transaction: every create, update and delete of every
   * kind commits together or not at all. Applying the same document again changes nothing (all unchanged).
   */
  async apply(ctx: ServiceContext, input: DocumentInput): Promise<DocumentPlan> {
    checkDocument(input.document);
    const organizationId = ctx.actor.organizationId;
    const compare = comparer(input, organizationId);
    return ctx.db.transaction(async (tx) => {
      const txCtx = withDatabase(ctx, tx);
      const repository = new ConfigItemsRepository(tx);
      await repository.lockOrganization(organizationId);
      const managed = await repository.list(organizationId);
      const plan = planDocument(input.document, managed, input.prune, compare);
      const ids = new Map<ConfigDocumentKind, Map<string, string>>(
        CONFIG_DOCUMENT_KINDS.map((kind) => [kind, new Map()]),
      );
      for (const m of managed) ids.get(m.kind)!.set(m.key, m.itemId);
      const appliedOf = new Map(managed.map((m) => [`${m.kind}\0${m.key}`, m.applied]));
      const now = ctx.clock.now();
      for (const kind of CONFIG_DOCUMENT_KINDS) {
        const items = input.document[kind] ?? [];
        const entryOf = new Map(plan.entries.filter((e) => e.kind === kind).map((e) => [e.key, e]));
        for (const index of applyOrder(kind, items)) {
          const item = items[index]!;
          const entry = entryOf.get(item.key)!;
          if (entry.action === 'unchanged') continue;
          const body = toApiBody(kind, item, ids);
          const at = `${kind}[${index}]`;
          const port = this.ports[kind];
          if (entry.action === 'create') {
            const id = await located(at, item.key, kind, () => port.create(txCtx, body));
            ids.get(kind)!.set(item.key, id);
            entry.itemId = id;
          } else {
            const before = appliedOf.get(`${kind}\0${item.key}`)!;
            const patch = updatePatch(kind, toApiBody(kind, before, ids, true), body, port.fixed, at);
            await located(at, item.key, kind, () => port.update(txCtx, entry.itemId!, patch));
          }
          await repository.save(organizationId, {
            kind,
            key: item.key,
            itemId: entry.itemId!,
            applied: compare(item, kind, index, secretPathsOf(appliedOf.get(`${kind}\0${item.key}`) ?? {})),
            appliedAt: now,
          });
        }
      }
      // Deletes last and in reverse order of kinds: what names a record goes before the record it names.
      for (const kind of [...CONFIG_DOCUMENT_KINDS].reverse()) {
        for (const entry of plan.entries.filter((e) => e.kind === kind && e.action === 'delete')) {
          await located(kind, entry.key, kind, () => this.ports[kind].remove(txCtx, entry.itemId!));
          await repository.remove(organizationId, kind, entry.key);
        }
      }
      return plan;
    });
  }

  /**
   * Puts existing records under management as the document's items (what `tocsin config export` does, so that export
   * then plan shows nothing to change); a record managed under the same key is baselined on the item again. One
   * transaction; a record managed under another key, or not the caller's, is refused.
   */
  async adopt(ctx: ServiceContext, input: AdoptInput): Promise<number> {
    checkDocument(input.document);
    const organizationId = ctx.actor.organizationId;
    // Whose records they are is read before the transaction: a kind's reads may use their own handle, which on SQLite
    // would wait for this transaction.
    const foreign = new Set<number>();
    for (const [n, item] of input.items.entries())
      if (!(await this.ports[item.kind].exists(ctx, item.itemId))) foreign.add(n);
    return ctx.db.transaction(async (tx) => {
      const repository = new ConfigItemsRepository(tx);
      await repository.lockOrganization(organizationId);
      const managed = await repository.list(organizationId);
      const problems: ErrorDetail[] = [];
      const adopted: Array<{ kind: ConfigDocumentKind; key: string; itemId: string; index: number }> = [];
      for (const [n, item] of input.items.entries()) {
        const index = (input.document[item.kind] ?? []).findIndex((i) => i.key === item.key);
        const field = `items[${n}]`;
        if (index < 0) problems.push({ field, issue: `${item.kind} "${item.key}" is not in the document` });
        else if (
          managed.some(
            (m) =>
              (m.itemId === item.itemId && (m.kind !== item.kind || m.key !== item.key)) ||
              (m.kind === item.kind && m.key === item.key && m.itemId !== item.itemId),
          )
        )
          problems.push({ field, issue: `${item.kind} "${item.key}" (${item.itemId}) is managed under another key` });
        else if (foreign.has(n))
          problems.push({ field, issue: `${item.itemId} is not a ${item.kind.replace('_', ' ')} record of yours` });
        else adopted.push({ ...item, index });
      }
      if (problems.length > 0) throw validationFailed(problems);
      const secretsOf = new Map<string, string[]>();
      for (const field of input.secretFields) {
        const match = /^([a-z_]+)\[(\d+)\]\.(.+)$/.exec(field);
        if (match)
          secretsOf.set(`${match[1]}[${match[2]}]`, [...(secretsOf.get(`${match[1]}[${match[2]}]`) ?? []), match[3]!]);
      }
      for (const a of adopted) {
        const item = input.document[a.kind]![a.index]!;
        await repository.save(organizationId, {
          kind: a.kind,
          key: a.key,
          itemId: a.itemId,
          applied: keepSecrets(
            withAdoptedSecrets(item, secretsOf.get(`${a.kind}[${a.index}]`) ?? []),
            managed.find((m) => m.kind === a.kind && m.key === a.key)?.applied,
          ),
          appliedAt: ctx.clock.now(),
        });
        await ctx.audit?.record(tx, {
          organizationId,
          action: 'config.adopt',
          target: { type: a.kind.replace(/s$/, ''), id: a.itemId },
          changes: { managed_by: [null, 'config'], config_key: [null, a.key] },
        });
      }
      return adopted.length;
    });
  }

  /** Of these records, those a document manages, with their keys (what records show as `config_key`). */
  managedKeys(db: ServiceContext['db'], organizationId: string, itemIds: readonly string[]) {
    return new ConfigItemsRepository(db).keysOf(organizationId, itemIds, this.queries);
  }

  /** The key a record is managed under, or null: the API's 409 `managed_by_config` for a change made elsewhere. */
  async managedKey(db: ServiceContext['db'], organizationId: string, itemId: string) {
    return new ConfigItemsRepository(db).findByItem(organizationId, itemId, this.queries);
  }
}

/** The item as stored for an adopted record: its secret fields hold the adopted marker (their values are unknown). */
function withAdoptedSecrets(item: ConfigItem, secretFields: readonly string[]): ConfigItem {
  const copy = structuredClone(item);
  for (const field of secretFields) {
    const path = field.split('.');
    let holder: Record<string, unknown> | undefined = copy;
    for (const part of path.slice(0, -1)) {
      const next: unknown = holder?.[part];
      holder = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : undefined;
    }
    if (holder && path.length > 0) holder[path[path.length - 1]!] = ADOPTED_SECRET;
  }
  return copy;
}

/**
 * A managed record exported again is baselined on what export wrote (defaults included), keeping the secrets it
 * stored: a secret the API does not show stays the hash of what was applied.
 */
function keepSecrets(item: ConfigItem, before: ConfigItem | undefined): ConfigItem {
  if (!before) return item;
  const copy = structuredClone(item);
  for (const path of secretPathsOf(before)) {
    const parts = path.split('.');
    let from: unknown = before;
    let holder: Record<string, unknown> | undefined = copy;
    for (const part of parts.slice(0, -1)) {
      from = (from as Record<string, unknown> | undefined)?.[part];
      const next: unknown = holder?.[part];
      holder = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : undefined;
    }
    const last = parts[parts.length - 1]!;
    const value = (from as Record<string, unknown> | undefined)?.[last];
    if (holder && last in holder && typeof value === 'string') holder[last] = value;
  }
  return copy;
}

/** Keys and references again (the server does not trust the CLI's check), and monitor dependencies without cycles. */
function checkDocument(document: ConfigDocument): void {
  const problems: ErrorDetail[] = documentKeyProblems(document);
  const monitors = document.monitors ?? [];
  try {
    applyOrder('monitors', monitors);
  } catch (err) {
    if (!(err instanceof CycleError)) throw err;
    problems.push({ field: `monitors[${err.index}].config.depends_on`, issue: 'forms a cycle of dependencies' });
  }
  if (problems.length > 0)
    throw validationFailed(problems.map((p) => ({ field: `document.${p.field}`, issue: p.issue })));
}

class CycleError extends Error {
  readonly index: number;
  constructor(index: number) {
    super('cycle');
    this.index = index;
  }
}

/** Indexes of a kind's items in the order to write them: a monitor after the monitors it depends on. */
function applyOrder(kind: ConfigDocumentKind, items: readonly ConfigItem[]): number[] {
  if (kind !== 'monitors') return items.map((_, i) => i);
  const indexOf = new Map(items.map((item, i) => [item.key, i]));
  const order: number[] = [];
  const state = new Map<number, 'visiting' | 'done'>();
  const visit = (i: number) => {
    if (state.get(i) === 'done') return;
    if (state.get(i) === 'visiting') throw new CycleError(i);
    state.set(i, 'visiting');
    const parents = ((items[i]!.config as { depends_on?: unknown } | undefined)?.depends_on ?? []) as unknown[];
    for (const parent of parents) {
      const p = typeof parent === 'string' ? indexOf.get(parent) : undefined;
      if (p !== undefined) visit(p);
    }
    state.set(i, 'done');
    order.push(i);
  };
  items.forEach((_, i) => visit(i));
  return order;
}

function comparer(input: DocumentInput, organizationId: string) {
  const secretsOf = new Map<string, string[]>();
  for (const field of input.secretFields) {
    const match = /^([a-z_]+)\[(\d+)\]\.(.+)$/.exec(field);
    if (!match) continue;
    const at = `${match[1]}[${match[2]}]`;
    secretsOf.set(at, [...(secretsOf.get(at) ?? []), match[3]!]);
  }
  return (item: ConfigItem, kind: ConfigDocumentKind, index: number, alsoSecret: readonly string[] = []) =>
    comparable(item, [...(secretsOf.get(`${kind}[${index}]`) ?? []), ...alsoSecret], organizationId);
}

/** A refusal of a kind's service, named by the item it came from (`document.monitors[3].config.timeout_ms`). */
async function located<T>(at: string, key: string, kind: ConfigDocumentKind, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const renamed = (field: string) => {
      for (const r of DOCUMENT_REFERENCES)
        if (r.kind === kind) field = field.replace(new RegExp(`(^|\\.)${r.apiField}(?=$|\\.|\\[)`), `$1${r.field}`);
      return field;
    };
    throw new DomainError(
      err.code,
      `${kind} "${key}": ${err.message}`,
      err.details?.map((d) => ({ ...d, field: `document.${at}.${renamed(d.field)}` })),
    );
  }
}

export type { PlanEntry };
