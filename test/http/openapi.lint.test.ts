/**
 * The rules of `redocly lint --extends recommended` that broke the document (issue 29 §21), checked in-repo with
 * what is installed: every operation, webhooks included, has an operationId (unique) and declares its security; the
 * document has a licence; every example validates against the schema beside it.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document read back from the app
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOC_ID = 'https://tocsin.invalid/openapi.json';

/** Every operation of `paths` and `webhooks`, with where it is. */
function operationsOf(doc: Json): Array<{ at: string; op: Json }> {
  const out: Array<{ at: string; op: Json }> = [];
  for (const section of ['paths', 'webhooks'])
    for (const [path, item] of Object.entries((doc[section] ?? {}) as Json))
      for (const [method, op] of Object.entries(item as Json))
        if (METHODS.includes(method)) out.push({ at: `${section} ${method.toUpperCase()} ${path}`, op: op as Json });
  return out;
}

/** Every `example` beside a `schema` (parameters, headers, media types), and every `examples[*].value`. */
function examplesOf(node: unknown, at: string, out: Array<{ at: string; schema: unknown; value: unknown }>): void {
  if (Array.isArray(node)) {
    node.forEach((x, i) => examplesOf(x, `${at}/${i}`, out));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Json;
  if (o.schema !== undefined && typeof o.schema === 'object') {
    if ('example' in o) out.push({ at: `${at}/example`, schema: o.schema, value: o.example });
    if (o.examples && typeof o.examples === 'object' && !Array.isArray(o.examples))
      for (const [name, ex] of Object.entries(o.examples as Json))
        if (ex && typeof ex === 'object' && 'value' in ex)
          out.push({ at: `${at}/examples/${name}`, schema: o.schema, value: (ex as Json).value });
  }
  for (const [k, v] of Object.entries(o)) examplesOf(v, `${at}/${k}`, out);
}

describe('OpenAPI document: the linter rules it once broke', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(async () => t.close());

  it('gives every operation, webhooks included, an operationId used once', () => {
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(100);
    expect(
      ops.filter(({ op }) => typeof op.operationId !== 'string' || op.operationId === '').map((o) => o.at),
    ).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId as string);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares security on every operation, webhooks included (none asked of a webhook receiver)', () => {
    const rootSecurity = Array.isArray(doc.security);
    expect(
      operationsOf(doc)
        .filter(({ op }) => !rootSecurity && !Array.isArray(op.security))
        .map((o) => o.at),
    ).toEqual([]);
    for (const item of Object.values(doc.webhooks as Json)) expect((item as Json).post.security).toEqual([]);
  });

  it('names its licence', () => {
    expect(doc.info.license).toMatchObject({ name: expect.any(String) });
    expect(doc.info.license.url ?? doc.info.license.identifier).toEqual(expect.any(String));
  });

  it('has examples that validate against their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
    const found: Array<{ at: string; schema: unknown; value: unknown }> = [];
    examplesOf(doc.paths, '#/paths', found);
    examplesOf(doc.webhooks, '#/webhooks', found);
    examplesOf(doc.components, '#/components', found);
    // The webhooks' seven header examples at least, for each event.
    expect(found.length).toBeGreaterThan(100);
    const bad = found.flatMap(({ at, schema, value }) => {
      const text = JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`);
      const validate = ajv.compile(JSON.parse(text) as object);
      return validate(value) ? [] : [`${at}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`];
    });
    expect(bad).toEqual([]);
  });

  it('would catch the signature example it used to have (63 hex characters)', () => {
    const header = (doc.webhooks.down.post.parameters as Json[]).find((p) => p.name === 'X-Service-Signature')!;
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(header.schema, header.example)).toBe(true);
    expect(ajv.validate(header.schema, String(header.example).slice(0, -1))).toBe(false);
  });
});
