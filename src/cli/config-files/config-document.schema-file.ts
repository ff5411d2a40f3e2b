import { readFileSync } from 'node:fs';

/**
 * The JSON Schema of a configuration document as shipped in the package (`schemas/tocsin-config.schema.json`, beside
 * src/ and dist/ alike). The CLI reads this file instead of deriving the schema from the API's route schemas
 * (http/schemas/config-document.schema.ts), which would load most of the application (≈ 1 s of CPU per run,
 * bench/config). A test fails when the file is not what the routes derive (test/config-documents).
 */
export function shippedConfigSchema(): Record<string, unknown> {
  return JSON.parse(
    readFileSync(new URL('../../../schemas/tocsin-config.schema.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
}
