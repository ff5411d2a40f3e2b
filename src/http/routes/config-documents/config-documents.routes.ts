import { Type, type Static } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationFailed } from '../../../platform/errors.ts';
import { detailsFromAjv, newAjv } from '../../../platform/schema/index.ts';
import type { ServiceContext } from '../../../modules/auth/index.ts';
import {
  CONFIG_DOCUMENT_KINDS,
  ITEM_KEY_PATTERN,
  type ConfigDocument,
  type ConfigDocumentsService,
  type DocumentPlan,
} from '../../../modules/config-documents/index.ts';
import { contextOf } from '../../request-context.ts';
import { configDocumentSchema } from '../../schemas/config-document.schema.ts';

const tags = ['config'];

const ConfigRequest = Type.Object(
  {
    document: Type.Unsafe<ConfigDocument>({
      type: 'object',
      description:
        'The configuration document: its JSON Schema is GET /api/v1/config/schema.json (checked against it before the ' +
        'rest of the body; 422 details name `document.<field>`).',
    }),
    prune: Type.Optional(
      Type.Boolean({ description: 'Delete managed items the document no longer lists (never unmanaged ones).' }),
    ),
    secret_fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
        maxItems: 10_000,
        description:
          'Fields of the document that hold secrets (`destinations[0].config.url`), as the CLI reports the ${env:NAME} ' +
          'it put in place: the plan shows them as (secret) and the stored copy keeps a hash, never the value.',
      }),
    ),
  },
  { additionalProperties: false },
);

const AdoptRequest = Type.Object(
  {
    // Not the document schema: export writes secrets it cannot read as ${env:NAME}, which need not be valid values;
    // adopt stores the items as they are (keys and references are checked) for the next plan to compare with.
    document: Type.Unsafe<ConfigDocument>({
      type: 'object',
      required: ['version'],
      properties: { version: { const: 1 } },
      additionalProperties: true,
      description: 'The document export wrote (secrets as ${env:NAME}).',
    }),
    items: Type.Array(
      Type.Object(
        {
          kind: Type.Union(CONFIG_DOCUMENT_KINDS.map((k) => Type.Literal(k))),
          key: Type.String({ pattern: ITEM_KEY_PATTERN }),
          item_id: Type.String({ minLength: 1, maxLength: 64 }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 20_000, description: 'The records the items stand for.' },
    ),
    secret_fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
        maxItems: 10_000,
        description: 'Fields whose secrets export could not read back (written as ${env:NAME}).',
      }),
    ),
  },
  { additionalProperties: false },
);

const Change = Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() });
const ConfigPlan = Type.Object(
  {
    entries: Type.Array(
      Type.Object({
        kind: Type.String(),
        key: Type.String(),
        action: Type.Union(['create', 'update', 'delete', 'unchanged'].map((a) => Type.Literal(a))),
        item_id: Type.Union([Type.String(), Type.Null()], { description: 'The record (null until created).' }),
        changes: Type.Array(Change),
      }),
    ),
    kept: Type.Array(Type.Object({ kind: Type.String(), key: Type.String(), item_id: Type.String() }), {
      description: 'Managed items the document no longer lists, kept because prune is off.',
    }),
    summary: Type.Object({
      create: Type.Integer(),
      update: Type.Integer(),
      delete: Type.Integer(),
      unchanged: Type.Integer(),
    }),
    applied: Type.Boolean({ description: 'true from apply (all of it committed), false from plan.' }),
  },
  { $id: 'ConfigPlan', title: 'ConfigPlan' },
);

function present(plan: DocumentPlan, applied: boolean) {
  const count = (action: string) => plan.entries.filter((e) => e.action === action).length;
  return {
    entries: plan.entries.map((e) => ({
      kind: e.kind,
      key: e.key,
      action: e.action,
      item_id: e.itemId,
      changes: e.changes,
    })),
    kept: plan.kept.map((k) => ({ kind: k.kind, key: k.key, item_id: k.itemId })),
    summary: {
      create: count('create'),
      update: count('update'),
      delete: count('delete'),
      unchanged: count('unchanged'),
    },
    applied,
  };
}

/** Apply's changes are recorded in the audit log as made by `config` (DECISIONS §21), on behalf of the caller. */
function applyContext(request: FastifyRequest): ServiceContext {
  const ctx = contextOf(request);
  const caller = ctx.audit!.origin.actor;
  const audit = request.server.serviceContextSource.audit.trail({
    actor: { type: 'config', id: caller.id, name: `config apply by ${caller.name}` },
    ip: request.ip,
    requestId: request.id,
  });
  return { ...ctx, audit };
}

/** A monitor's `type` is http when absent, as in POST /monitors (the schema chooses the branch by it). */
async function fillMonitorTypes(request: FastifyRequest): Promise<void> {
  const monitors = (request.body as { document?: { monitors?: unknown } } | undefined)?.document?.monitors;
  if (!Array.isArray(monitors)) return;
  for (const item of monitors)
    if (typeof item === 'object' && item !== null && !Array.isArray(item) && !('type' in item))
      (item as Record<string, unknown>).type = 'http';
}

/**
 * Configuration as code (DECISIONS §19, docs/config-as-code.md): the document's JSON Schema (public), plan and apply
 * (scope config:write, owners and admins).
 */
export function registerConfigDocumentRoutes(
  app: FastifyInstance,
  deps: { configDocuments: ConfigDocumentsService },
): void {
  app.addSchema(ConfigPlan);
  // The document is checked by its own validator (the route's schema only says "an object"): the OpenAPI document
  // points at /api/v1/config/schema.json instead of carrying a copy of every create body again.
  let validateDocument: ValidateFunction | undefined;
  const checkDocument = async (request: FastifyRequest): Promise<void> => {
    const document = (request.body as { document?: unknown } | undefined)?.document;
    if (document === undefined) return;
    validateDocument ??= newAjv({ coerce: false }).compile(configDocumentSchema());
    if (!validateDocument(document))
      throw validationFailed(detailsFromAjv(validateDocument.errors ?? [], 'document'), 'The document is not valid.');
  };
  const published = JSON.stringify(configDocumentSchema());
  app.get(
    '/api/v1/config/schema.json',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The JSON Schema of a configuration document',
        description: 'Items are the API create bodies with a `key`; references name keys. docs/config-as-code.md.',
        operationId: 'getConfigDocumentSchema',
        produces: ['application/schema+json'],
      },
    },
    async (_request, reply) =>
      reply
        .type('application/schema+json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(published),
  );

  const input = (body: Static<typeof ConfigRequest>) => ({
    document: body.document,
    prune: body.prune ?? false,
    secretFields: body.secret_fields ?? [],
  });

  app.post<{ Body: Static<typeof ConfigRequest> }>(
    '/api/v1/config/plan',
    {
      config: { scope: 'config:write' },
      preValidation: [fillMonitorTypes, checkDocument],
      schema: {
        tags,
        summary: 'What applying a configuration document would change (changes nothing)',
        description:
          'Per key: create, update (with field diffs against what was last applied), delete (prune only) or unchanged.',
        operationId: 'planConfig',
        body: ConfigRequest,
        response: { 200: Type.Ref(ConfigPlan) },
      },
    },
    async (request) => present(await deps.configDocuments.plan(contextOf(request), input(request.body)), false),
  );

  app.post<{ Body: Static<typeof AdoptRequest> }>(
    '/api/v1/config/adopt',
    {
      config: { scope: 'config:write' },
      preValidation: fillMonitorTypes,
      schema: {
        tags,
        summary: 'Put existing records under management as the items of a document',
        description:
          'What `tocsin config export` does after writing the organization to files, so that export then plan shows ' +
          'nothing to change: each listed record becomes managed under its key (409 managed_by_config to API ' +
          'changes). One transaction; a record managed already or not the caller’s is a 422.',
        operationId: 'adoptConfig',
        body: AdoptRequest,
        response: { 200: Type.Object({ adopted: Type.Integer() }) },
      },
    },
    async (request) => ({
      adopted: await deps.configDocuments.adopt(applyContext(request), {
        document: request.body.document,
        items: request.body.items.map((i) => ({ kind: i.kind, key: i.key, itemId: i.item_id })),
        secretFields: request.body.secret_fields ?? [],
      }),
    }),
  );

  app.post<{ Body: Static<typeof ConfigRequest> }>(
    '/api/v1/config/apply',
    {
      config: { scope: 'config:write' },
      preValidation: [fillMonitorTypes, checkDocument],
      schema: {
        tags,
        summary: 'Apply a configuration document in one transaction',
        description:
          'Does the plan, all or nothing, under the organization’s lock (two applies run one after the other). Items ' +
          'it makes are managed: the API refuses to change them (409 managed_by_config). Applying again changes nothing.',
        operationId: 'applyConfig',
        body: ConfigRequest,
        response: { 200: Type.Ref(ConfigPlan) },
      },
    },
    async (request) => present(await deps.configDocuments.apply(applyContext(request), input(request.body)), true),
  );
}
