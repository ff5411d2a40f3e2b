/**
 * Writes schemas/tocsin-config.schema.json, the JSON Schema of a configuration document shipped in the package for
 * editors that work offline (the server serves the same at /api/v1/config/schema.json). A test fails when the file
 * is not what the code derives: run `node tools/config/config-schema.main.ts` after changing a create body.
 */
import { writeFileSync } from 'node:fs';
import { configSchemaText } from './config-schema.text.ts';

const target = new URL('../../schemas/tocsin-config.schema.json', import.meta.url);
writeFileSync(target, configSchemaText());
process.stdout.write(`wrote ${target.pathname}\n`);
