// `npm run web:api`: regenerates web/src/api/schema.d.ts and the forms' field lists from the served OpenAPI
// document (or from a saved copy of it: `npm run web:api -- openapi.json`).
import { readFileSync, writeFileSync } from 'node:fs';
import { generateWebApiFiles, servedOpenApiDocument } from './openapi-schema.ts';

const saved = process.argv[2];
const document = saved
  ? (JSON.parse(readFileSync(saved, 'utf8')) as Record<string, unknown>)
  : await servedOpenApiDocument();
for (const file of await generateWebApiFiles(document)) {
  writeFileSync(file.path, file.text);
  process.stdout.write(`wrote ${file.path.pathname}\n`);
}
