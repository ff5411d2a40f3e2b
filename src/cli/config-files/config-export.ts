import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import {
  CONFIG_DOCUMENT_KINDS,
  DOCUMENT_REFERENCES,
  holders,
  type ConfigDocument,
  type ConfigDocumentKind,
  type ConfigItem,
} from '../../modules/config-format/index.ts';
import type { RemoteTarget } from './config-remote.ts';
import { shippedConfigSchema } from './config-document.schema-file.ts';

type Json = Record<string, unknown>;

/** Where the API lists each kind's records. */
const LISTS: Record<ConfigDocumentKind, string> = {
  destinations: '/api/v1/auth/organization/webhooks',
  monitors: '/api/v1/monitors',
  status_pages: '/api/v1/status-pages',
  maintenance_windows: '/api/v1/maintenance-windows',
  sla_targets: '/api/v1/sla-targets',
  custom_reports: '/api/v1/custom-reports',
  scheduled_reports: '/api/v1/scheduled-reports',
};

export class ExportError extends Error {}

async function getJson(target: RemoteTarget, path: string): Promise<Json> {
  const response = await fetch(new URL(path, target.url.endsWith('/') ? target.url : `${target.url}/`), {
    headers: { authorization: `Bearer ${target.key}` },
  });
  const body = (await response.json().catch(() => null)) as Json | null;
  if (!response.ok) {
    const error = body?.error as { message?: string } | undefined;
    throw new ExportError(`GET ${path}: ${response.status} ${error?.message ?? ''}`.trim());
  }
  return body ?? {};
}

/** Every record of a kind, page by page. */
async function listAll(target: RemoteTarget, path: string): Promise<Json[]> {
  const records: Json[] = [];
  let cursor: string | null = null;
  do {
    const page = await getJson(target, `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    records.push(...((page.data as Json[] | undefined) ?? []));
    cursor = (page.next_cursor as string | null | undefined) ?? null;
  } while (cursor);
  return records;
}

/** A key from a name: lower case, letters and digits joined by -, unique in its kind (`api`, `api-2`). */
function keyFrom(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || 'item';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function nameOf(kind: ConfigDocumentKind, record: Json): string {
  if (kind === 'status_pages') return text(record.slug) || text(record.title);
  if (kind === 'scheduled_reports') return `${text(record.report_type)}-${text(record.frequency)}`;
  return text(record.name) || text(record.id);
}

let documentSchema: Json | undefined;
/** The item schema of a kind for this record: its branch by `type` where the kind has branches. */
function itemSchema(kind: ConfigDocumentKind, record: Json): Json {
  // Read once per process (a CLI run), like the validator of config-document.check.ts.
  documentSchema ??= shippedConfigSchema();
  const list = (documentSchema.properties as Json)[kind] as Json;
  const item = list.items as Json;
  const branches = item.oneOf as Json[] | undefined;
  if (!branches) return item;
  return branches.find((b) => ((b.properties as Json).type as Json | undefined)?.const === record.type) ?? branches[0]!;
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

export interface ExportedOrganization {
  document: ConfigDocument;
  /** Every record under its key: export adopts them (the managed ones are baselined on what it wrote). */
  records: Array<{ kind: ConfigDocumentKind; key: string; itemId: string; managed: boolean }>;
  /** Fields written as ${env:NAME} because the API never shows their secret, with the variable. */
  secrets: Array<{ field: string; variable: string }>;
}

/**
 * A live organization as a document: each record as its kind's create body (the fields the document takes, defaults
 * included, nulls dropped), references by key, secrets as `${env:…}` for the user to provide.
 */
export async function exportOrganization(target: RemoteTarget): Promise<ExportedOrganization> {
  const records = new Map<ConfigDocumentKind, Json[]>();
  for (const kind of CONFIG_DOCUMENT_KINDS) records.set(kind, await listAll(target, LISTS[kind]));
  const keyOf = new Map<ConfigDocumentKind, Map<string, string>>();
  const listed: ExportedOrganization['records'] = [];
  for (const kind of CONFIG_DOCUMENT_KINDS) {
    const taken = new Set<string>(
      records.get(kind)!.flatMap((r) => (typeof r.config_key === 'string' ? [r.config_key] : [])),
    );
    const keys = new Map<string, string>();
    for (const record of records.get(kind)!) {
      const id = String(record.id);
      const key = typeof record.config_key === 'string' ? record.config_key : keyFrom(nameOf(kind, record), taken);
      keys.set(id, key);
      listed.push({ kind, key, itemId: id, managed: record.managed_by === 'config' });
    }
    keyOf.set(kind, keys);
  }
  const document: ConfigDocument = { version: 1 };
  const secrets: ExportedOrganization['secrets'] = [];
  const generated = new Set<ConfigItem>();
  for (const kind of CONFIG_DOCUMENT_KINDS) {
    const items: ConfigItem[] = [];
    for (const record of records.get(kind)!) {
      const schema = itemSchema(kind, record);
      const properties = schema.properties as Json;
      const item: ConfigItem = { key: keyOf.get(kind)!.get(String(record.id))! };
      for (const reference of DOCUMENT_REFERENCES.filter((r) => r.kind === kind)) {
        for (const holder of holders(record, reference.parent)) {
          if (!(reference.apiField in holder)) continue;
          const known = keyOf.get(reference.names)!;
          const value = holder[reference.apiField];
          delete holder[reference.apiField];
          if (Array.isArray(value))
            holder[reference.field] = value.flatMap((id) => (known.has(String(id)) ? [known.get(String(id))] : []));
          else if (typeof value === 'string' && known.has(value)) holder[reference.field] = known.get(value);
        }
      }
      for (const name of Object.keys(properties))
        if (name !== 'key' && record[name] !== undefined && record[name] !== null)
          item[name] = withoutNulls(record[name]);
      const config = (properties.config as Json | undefined)?.properties as Json | undefined;
      if (config && typeof item.config === 'object' && item.config !== null) {
        const values = item.config as Json;
        for (const [field, fieldSchema] of Object.entries(config)) {
          // A secret is shown masked (destinations) or only as set (a monitor's password: `password_set`).
          const isSet = values[field] !== undefined || record[`${field}_set`] === true;
          if ((fieldSchema as Json).writeOnly !== true || !isSet) continue;
          values[field] = `\${env:${`TOCSIN_${item.key}_${field}`.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}}`;
          generated.add(item);
        }
      }
      items.push(item);
    }
    if (items.length === 0) continue;
    items.sort((a, b) => a.key.localeCompare(b.key));
    document[kind] = items;
    // The secrets' fields by their place in the sorted list (what plan and adopt name them by).
    items.forEach((item, i) => {
      if (!generated.has(item)) return;
      for (const [field, value] of Object.entries(item.config as Json)) {
        const variable = typeof value === 'string' ? /^\$\{env:(TOCSIN_[A-Z0-9_]+)\}$/.exec(value)?.[1] : undefined;
        if (variable) secrets.push({ field: `${kind}[${i}].config.${field}`, variable });
      }
    });
  }
  return { document, records: listed, secrets };
}

/** Writes one file per kind (`destinations.yaml`, …) under `dir`, each with `version: 1`. */
export function writeDocument(
  dir: string,
  document: ConfigDocument,
  secrets: ExportedOrganization['secrets'],
): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const kind of CONFIG_DOCUMENT_KINDS) {
    const items = document[kind];
    if (!items || items.length === 0) continue;
    const path = join(dir, `${kind.replace('_', '-')}.yaml`);
    const needs = secrets.filter((s) => s.field.startsWith(`${kind}[`)).map((s) => s.variable);
    const header = needs.length > 0 ? `# Secrets from the environment: ${needs.join(', ')}\n` : '';
    writeFileSync(path, `${header}${stringify({ version: 1, [kind]: items }, { lineWidth: 0 })}`);
    written.push(path);
  }
  return written;
}
