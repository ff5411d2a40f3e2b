/**
 * Benchmark: OpenAPI parse (issue 15). A 5 MB description with 2,000 operations (400 resources × 5 operations,
 * shared and cyclic schemas, descriptions padded to reach the size), parsed as JSON text, as YAML text and as an
 * object through `parseOpenApi` (the work POST /monitors/openapi/parse does); and a YAML alias bomb refused.
 * Goals: parse < 2 s; alias bomb refused < 100 ms.
 * Usage: node bench/imports/openapi.bench.ts [runs]
 */
import { stringify } from 'yaml';
import { parseOpenApi } from '../../src/modules/imports/index.ts';
import { ALIAS_BOMB, largeDescription } from '../../test/imports/openapi.fixtures.ts';

const RUNS = Number(process.argv[2] ?? 5);

/** Pads the schema descriptions until the JSON text is about `bytes` long. */
function descriptionOf(bytes: number): Record<string, unknown> {
  const bare = JSON.stringify(largeDescription(2000)).length;
  const padding = Math.max(0, Math.floor((bytes - bare) / 400));
  return largeDescription(2000, padding);
}

async function timed(label: string, run: () => Promise<unknown>): Promise<void> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)]!;
  console.log(
    `${label.padEnd(44)} median ${median.toFixed(0)} ms  (min ${samples[0]!.toFixed(0)}, max ${samples.at(-1)!.toFixed(0)})`,
  );
}

const doc = descriptionOf(5 * 1024 * 1024);
const json = JSON.stringify(doc);
const yaml = stringify(doc, { aliasDuplicateObjects: false });
console.log(
  `description: ${(json.length / 1024 / 1024).toFixed(2)} MiB as JSON, ${(yaml.length / 1024 / 1024).toFixed(2)} MiB as YAML`,
);
const count = (await parseOpenApi(json)).length;
console.log(`operations: ${count}`);
await timed('parse, JSON text (5 MB, 2,000 operations)', () => parseOpenApi(json));
await timed('parse, YAML text', () => parseOpenApi(yaml));
await timed('parse, object (already decoded)', () => parseOpenApi(structuredClone(doc)));
await timed('alias bomb refused', () =>
  parseOpenApi(ALIAS_BOMB).then(
    () => {
      throw new Error('the alias bomb was accepted');
    },
    () => undefined,
  ),
);
