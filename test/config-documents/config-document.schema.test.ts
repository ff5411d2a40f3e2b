import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configDocumentSchema } from '../../src/http/schemas/config-document.schema.ts';
import { DOCUMENT_REFERENCES, referencePath } from '../../src/modules/config-documents/index.ts';
import { configSchemaText } from '../../tools/config/config-schema.text.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

type Json = Record<string, unknown>;

/** Every `x-reference` of the document schema as `kind path → kind` (`*` for list items), branches merged. */
function referencesIn(): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown, kind: string, path: string[]): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, kind, path));
    if (typeof node !== 'object' || node === null) return;
    const s = node as Json;
    if (typeof s['x-reference'] === 'string') {
      const target = s.type === 'string' || s.type === undefined ? path : [...path, '*'];
      found.add(`${kind} ${target.join('.')} → ${s['x-reference'] as string}`);
      return;
    }
    for (const [name, child] of Object.entries((s.properties ?? {}) as Json)) walk(child, kind, [...path, name]);
    if (s.items) walk(s.items, kind, [...path, '*']);
    for (const branch of ['oneOf', 'anyOf'] as const) if (Array.isArray(s[branch])) walk(s[branch], kind, path);
  };
  for (const [kind, list] of Object.entries((configDocumentSchema().properties ?? {}) as Json))
    if (kind !== 'version') walk((list as Json).items, kind, []);
  return found;
}

describe('the configuration document schema', () => {
  it('is the file shipped in schemas/ (regenerate: node tools/config/config-schema.main.ts)', () => {
    const shipped = readFileSync(new URL('../../schemas/tocsin-config.schema.json', import.meta.url), 'utf8');
    expect(shipped === configSchemaText(), 'schemas/tocsin-config.schema.json is stale').toBe(true);
  });

  it('marks exactly the references that validate and apply resolve', () => {
    const declared = new Set(DOCUMENT_REFERENCES.map((r) => `${r.kind} ${referencePath(r).join('.')} → ${r.names}`));
    expect([...referencesIn()].sort()).toEqual([...declared].sort());
  });

  it('keeps no id reference of the API (every *_id(s) field of a create body is a key reference or dropped)', () => {
    const text = JSON.stringify(configDocumentSchema());
    for (const field of [
      'alert_destination_ids',
      'monitor_ids',
      'status_page_ids',
      'destination_ids',
      'sla_target_ids',
      'custom_report_id',
    ])
      expect(text, field).not.toContain(`"${field}"`);
  });

  describe('served by the API', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });

    it('at /api/v1/config/schema.json, without a key', async () => {
      const res = await t.tocsin.app.inject({ method: 'GET', url: '/api/v1/config/schema.json' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/schema+json; charset=utf-8');
      expect(res.json()).toEqual(configDocumentSchema());
    });
  });
});
