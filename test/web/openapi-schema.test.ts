/**
 * The web app's typed client must match the API it talks to: the committed web/src/api/schema.d.ts (and the
 * field lists the monitor, destination and key forms are built from) must be what the served OpenAPI document
 * produces now. After changing a route schema: `npm run web:api`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateWebApiFiles, servedOpenApiDocument } from '../../tools/web/openapi-schema.ts';

describe('web/src/api generated from the served OpenAPI document', () => {
  it('is up to date (run `npm run web:api` when this fails)', { timeout: 60_000 }, async () => {
    const files = await generateWebApiFiles(await servedOpenApiDocument());
    expect(files.length).toBe(4);
    for (const file of files) {
      const committed = readFileSync(file.path, 'utf8');
      expect(committed, `${file.path.pathname} differs from what the document produces`).toBe(file.text);
    }
  });

  it('types every operation of the document', { timeout: 60_000 }, async () => {
    const document = (await servedOpenApiDocument()) as { paths: Record<string, unknown> };
    const schema = readFileSync(new URL('../../web/src/api/schema.d.ts', import.meta.url), 'utf8');
    for (const path of Object.keys(document.paths)) expect(schema).toContain(`'${path}': {`);
  });
});
