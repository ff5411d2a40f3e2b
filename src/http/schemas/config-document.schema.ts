import type { TSchema } from '@sinclair/typebox';
import { CustomReportCreateBody } from '../routes/custom-reports/custom-report.schemas.ts';
import { DestinationCreateBody } from '../routes/destinations/destination.schemas.ts';
import { MaintenanceWindowCreateBody } from '../routes/maintenance/maintenance.schemas.ts';
import { MONITOR_SHARED_SCHEMAS, MonitorCreateBody } from '../routes/monitors/monitor.schemas.ts';
import { ScheduledReportCreateBody } from '../routes/scheduled-reports/scheduled-report.schemas.ts';
import { SlaTargetCreateBody } from '../routes/sla-targets/sla-target.schemas.ts';
import { StatusPageCreateBody } from '../routes/status-pages/status-page.schemas.ts';
import {
  CONFIG_DOCUMENT_KINDS,
  ITEM_KEY_PATTERN,
  type ConfigDocumentKind,
} from '../../modules/config-documents/index.ts';

/*
 * The configuration document (DECISIONS §19) is made of the API's own create bodies: each item is the body of its
 * kind's POST with a `key`, and every field that names another item by id names it by key instead
 * (`config.alert_destination_ids: [dst_…]` becomes `config.alert_destinations: [ops-slack]`). It is derived from the
 * route schemas here, never written twice, so a field the API gains is a field of the document.
 */

type JsonSchema = Record<string, unknown>;

const keyIssue = 'must be 1-64 lower-case letters, digits or -';

const itemKey: JsonSchema = {
  type: 'string',
  pattern: ITEM_KEY_PATTERN,
  description: 'Stable name of this item in the document, unique per kind; other items refer to it by this key.',
  'x-issues': { type: keyIssue, pattern: keyIssue },
};

/** A list of keys of `kind` standing where the API takes ids of that kind. */
function keyList(kind: ConfigDocumentKind, description: string, nullable = false): JsonSchema {
  const issue = `must be a list of ${kind.replace('_', ' ')} keys`;
  return {
    type: nullable ? ['array', 'null'] : 'array',
    items: { ...itemKey, description: undefined },
    uniqueItems: true,
    'x-reference': kind,
    description,
    'x-issues': { type: issue },
  };
}

function keyOf(kind: ConfigDocumentKind, description: string): JsonSchema {
  return { ...itemKey, 'x-reference': kind, description };
}

/** A plain copy of a TypeBox schema (its symbol keys dropped) with every `$ref` to a shared schema put in place. */
function plain(schema: TSchema, shared: Map<string, JsonSchema>): JsonSchema {
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as JsonSchema).$ref;
    if (typeof ref === 'string' && shared.has(ref)) return inline(shared.get(ref));
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(node)) if (k !== '$id') out[k] = inline(v);
    return out;
  };
  return inline(JSON.parse(JSON.stringify(schema))) as JsonSchema;
}

function propertiesOf(schema: JsonSchema): JsonSchema {
  return (schema.properties ?? {}) as JsonSchema;
}

/** Replaces the property `from` of an object schema by `to` with `schema` (required stays required). */
function replaceProperty(object: JsonSchema, from: string, to: string, schema: JsonSchema): void {
  const properties = propertiesOf(object);
  if (!(from in properties)) return;
  const next: JsonSchema = {};
  for (const [name, value] of Object.entries(properties)) {
    if (name === from) next[to] = schema;
    else next[name] = value;
  }
  object.properties = next;
  if (Array.isArray(object.required)) object.required = object.required.map((r: string) => (r === from ? to : r));
}

/**
 * The item of a kind: its create body with a required `key` first, closed (unknown fields refused). A body chosen by
 * a discriminator is closed per branch; its top level lists the shared fields only where it lists any.
 */
function withKey(body: JsonSchema, kindName: string): JsonSchema {
  const close = (object: JsonSchema, refuseUnknown: boolean) => {
    // A top level that lists no fields (its branches do) gets none: listing only `key` would close it to the rest.
    if (object.properties !== undefined || refuseUnknown) object.properties = { key: itemKey, ...propertiesOf(object) };
    object.required = ['key', ...((object.required as string[] | undefined) ?? []).filter((r) => r !== 'key')];
    if (refuseUnknown) object.additionalProperties = false;
    object['x-issues'] = {
      ...((object['x-issues'] as JsonSchema | undefined) ?? {}),
      additionalProperties: `is not a known field of ${kindName}`,
      type: 'must be a mapping (an object)',
    };
  };
  const branches = (body.oneOf ?? []) as JsonSchema[];
  close(body, branches.length === 0 || body.additionalProperties === false);
  for (const branch of branches) close(branch, true);
  // Ajv chooses the branch by the tag, so the tag is required (a monitor's `type` is filled in as http when absent).
  const tag = (body.discriminator as { propertyName?: string } | undefined)?.propertyName;
  if (tag && !(body.required as string[]).includes(tag)) body.required = [...(body.required as string[]), tag];
  return body;
}

function monitorItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(MonitorCreateBody, shared), 'monitors');
  for (const branch of [body, ...((body.oneOf ?? []) as JsonSchema[])]) {
    const config = propertiesOf(branch).config as JsonSchema | undefined;
    if (!config) continue;
    replaceProperty(
      config,
      'alert_destination_ids',
      'alert_destinations',
      keyList('destinations', 'Destinations of this document to notify (their keys).', true),
    );
    replaceProperty(
      config,
      'depends_on',
      'depends_on',
      keyList('monitors', 'Parent monitors of this document (their keys); no cycles. docs/dependencies.md.', true),
    );
  }
  return body;
}

function destinationItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(DestinationCreateBody, shared), 'destinations');
  // A monitor names the destinations it alerts (config.alert_destinations); saying it twice could disagree.
  for (const branch of (body.oneOf ?? []) as JsonSchema[]) delete propertiesOf(branch).monitor_ids;
  return body;
}

function statusPageItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(StatusPageCreateBody, shared), 'status_pages');
  replaceProperty(body, 'monitor_ids', 'monitors', keyList('monitors', 'Monitors shown, in this order (their keys).'));
  const groups = propertiesOf(body).groups as JsonSchema | undefined;
  const group = groups?.items as JsonSchema | undefined;
  if (group)
    replaceProperty(group, 'monitor_ids', 'monitors', keyList('monitors', 'Monitors of the group, in order (keys).'));
  return body;
}

function maintenanceItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(MaintenanceWindowCreateBody, shared), 'maintenance_windows');
  replaceProperty(body, 'monitor_ids', 'monitors', keyList('monitors', 'Monitors covered (their keys).'));
  replaceProperty(
    body,
    'status_page_ids',
    'status_pages',
    keyList('status_pages', 'Status pages that announce the window (their keys).'),
  );
  return body;
}

function slaTargetItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(SlaTargetCreateBody, shared), 'sla_targets');
  replaceProperty(body, 'monitor_ids', 'monitors', keyList('monitors', 'Monitors the target covers (their keys).'));
  return body;
}

function scheduledReportItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(ScheduledReportCreateBody, shared), 'scheduled_reports');
  replaceProperty(
    body,
    'custom_report_id',
    'custom_report',
    keyOf('custom_reports', 'custom report_type only: the custom report of this document (its key).'),
  );
  replaceProperty(
    body,
    'destination_ids',
    'destinations',
    keyList('destinations', 'Destinations that receive each run (their keys).'),
  );
  return body;
}

function customReportItem(shared: Map<string, JsonSchema>): JsonSchema {
  const body = withKey(plain(CustomReportCreateBody, shared), 'custom_reports');
  const widget = (propertiesOf(body).widgets as JsonSchema | undefined)?.items as JsonSchema | undefined;
  if (widget) {
    replaceProperty(widget, 'monitor_ids', 'monitors', keyList('monitors', 'Monitors of the widget (their keys).'));
    const options = propertiesOf(widget).options as JsonSchema | undefined;
    if (options)
      replaceProperty(
        options,
        'sla_target_ids',
        'sla_targets',
        keyList('sla_targets', 'sla widgets only: the targets shown (their keys).'),
      );
  }
  return body;
}

function list(item: JsonSchema, kind: ConfigDocumentKind): JsonSchema {
  return {
    type: 'array',
    items: item,
    description: `The ${kind.replace('_', ' ')} this document manages.`,
    'x-issues': { type: 'must be a list' },
  };
}

/**
 * The JSON Schema of a configuration document (served at /api/v1/config/schema.json and shipped as
 * `schemas/tocsin-config.schema.json`). Built once per call: the caller keeps it.
 */
export function configDocumentSchema(): JsonSchema {
  const shared = new Map<string, JsonSchema>();
  for (const schema of MONITOR_SHARED_SCHEMAS) {
    const id = (schema as { $id?: string }).$id;
    if (id) shared.set(id, JSON.parse(JSON.stringify(schema)) as JsonSchema);
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://tocsin.dev/schemas/tocsin-config.schema.json',
    title: 'Tocsin configuration document',
    description:
      'DECISIONS §19: what `tocsin config validate|plan|apply` read. Each item is the API create body of its kind with ' +
      'a `key`; references name keys; secrets are written as ${env:NAME}. docs/config-as-code.md.',
    type: 'object',
    required: ['version'],
    additionalProperties: false,
    properties: {
      version: { const: 1, description: 'The document format: 1.', 'x-issues': { const: 'must be 1' } },
      monitors: list(monitorItem(shared), 'monitors'),
      destinations: list(destinationItem(shared), 'destinations'),
      status_pages: list(statusPageItem(shared), 'status_pages'),
      maintenance_windows: list(maintenanceItem(shared), 'maintenance_windows'),
      sla_targets: list(slaTargetItem(shared), 'sla_targets'),
      scheduled_reports: list(scheduledReportItem(shared), 'scheduled_reports'),
      custom_reports: list(customReportItem(shared), 'custom_reports'),
    },
    'x-issues': {
      type: 'must be a mapping (an object) with version: 1',
      additionalProperties: `is not a known kind (one of ${CONFIG_DOCUMENT_KINDS.join(', ')})`,
    },
  };
}
