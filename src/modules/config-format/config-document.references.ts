import {
  CONFIG_DOCUMENT_KINDS,
  type ConfigDocument,
  type ConfigDocumentKind,
  type ConfigItem,
  type DocumentProblem,
} from './config-document.types.ts';

/**
 * Where an item names another by key: the kind it is in, the object that holds the field (`*` for each element of a
 * list), the field in the document and in the API, one key or a list, and the kind it names. Apply turns each into
 * ids; the document schema marks each with `x-reference` (a test checks the two agree).
 */
export interface DocumentReference {
  kind: ConfigDocumentKind;
  parent: readonly string[];
  field: string;
  apiField: string;
  list: boolean;
  names: ConfigDocumentKind;
}

export const DOCUMENT_REFERENCES: readonly DocumentReference[] = [
  {
    kind: 'monitors',
    parent: ['config'],
    field: 'alert_destinations',
    apiField: 'alert_destination_ids',
    list: true,
    names: 'destinations',
  },
  { kind: 'monitors', parent: ['config'], field: 'depends_on', apiField: 'depends_on', list: true, names: 'monitors' },
  { kind: 'status_pages', parent: [], field: 'monitors', apiField: 'monitor_ids', list: true, names: 'monitors' },
  {
    kind: 'status_pages',
    parent: ['groups', '*'],
    field: 'monitors',
    apiField: 'monitor_ids',
    list: true,
    names: 'monitors',
  },
  {
    kind: 'maintenance_windows',
    parent: [],
    field: 'monitors',
    apiField: 'monitor_ids',
    list: true,
    names: 'monitors',
  },
  {
    kind: 'maintenance_windows',
    parent: [],
    field: 'status_pages',
    apiField: 'status_page_ids',
    list: true,
    names: 'status_pages',
  },
  { kind: 'sla_targets', parent: [], field: 'monitors', apiField: 'monitor_ids', list: true, names: 'monitors' },
  {
    kind: 'custom_reports',
    parent: ['widgets', '*'],
    field: 'monitors',
    apiField: 'monitor_ids',
    list: true,
    names: 'monitors',
  },
  {
    kind: 'custom_reports',
    parent: ['widgets', '*', 'options'],
    field: 'sla_targets',
    apiField: 'sla_target_ids',
    list: true,
    names: 'sla_targets',
  },
  {
    kind: 'scheduled_reports',
    parent: [],
    field: 'custom_report',
    apiField: 'custom_report_id',
    list: false,
    names: 'custom_reports',
  },
  {
    kind: 'scheduled_reports',
    parent: [],
    field: 'destinations',
    apiField: 'destination_ids',
    list: true,
    names: 'destinations',
  },
];

/** The path of a reference's keys under its item (`config.depends_on.*`). */
export function referencePath(reference: DocumentReference): string[] {
  return [...reference.parent, reference.field, ...(reference.list ? ['*'] : [])];
}

/** Every value at `path` under `value`, with its field path (`config.depends_on[1]`). */
export function valuesAt(
  value: unknown,
  path: readonly string[],
  field: string,
): Array<{ field: string; value: unknown }> {
  if (path.length === 0) return value === undefined || value === null ? [] : [{ field, value }];
  const [head, ...rest] = path;
  if (head === '*') {
    if (!Array.isArray(value)) return [];
    return value.flatMap((element, i) => valuesAt(element, rest, `${field}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return valuesAt((value as Record<string, unknown>)[head!], rest, field === '' ? head! : `${field}.${head!}`);
}

/** The items of a kind; tolerant of a document the schema refused, so its key problems are reported with the rest. */
function itemsOf(document: ConfigDocument, kind: ConfigDocumentKind): ConfigItem[] {
  const items: unknown = document[kind];
  return Array.isArray(items)
    ? items.map((item: unknown) =>
        typeof item === 'object' && item !== null && typeof (item as ConfigItem).key === 'string'
          ? (item as ConfigItem)
          : { key: '' },
      )
    : [];
}

/**
 * What a schema cannot say about a document: a key used twice in one kind, and a reference to a key the document
 * does not list. Every problem at once, each at its field.
 */
export function documentKeyProblems(document: ConfigDocument): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const keys = new Map<ConfigDocumentKind, Set<string>>();
  for (const kind of CONFIG_DOCUMENT_KINDS) {
    const seen = new Map<string, number>();
    itemsOf(document, kind).forEach((item, i) => {
      if (item.key === '') return;
      const first = seen.get(item.key);
      if (first !== undefined)
        problems.push({
          field: `${kind}[${i}].key`,
          issue: `"${item.key}" is already the key of an earlier item of ${kind} (#${first + 1}): one item per key`,
        });
      else seen.set(item.key, i);
    });
    keys.set(kind, new Set(seen.keys()));
  }
  for (const reference of DOCUMENT_REFERENCES) {
    itemsOf(document, reference.kind).forEach((item, i) => {
      for (const { field, value } of valuesAt(item, referencePath(reference), `${reference.kind}[${i}]`)) {
        if (typeof value === 'string' && !keys.get(reference.names)!.has(value))
          problems.push({ field, issue: `names ${reference.names} key "${value}", which the document does not list` });
      }
    });
  }
  return problems;
}

type Body = Record<string, unknown>;

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects at `parent` under `item` (`widgets.*.options` → each widget's options). */
export function holders(value: unknown, parent: readonly string[]): Body[] {
  if (parent.length === 0) return isObject(value) ? [value] : [];
  const [head, ...rest] = parent;
  if (head === '*') return Array.isArray(value) ? value.flatMap((v) => holders(v, rest)) : [];
  return isObject(value) ? holders(value[head!], rest) : [];
}
