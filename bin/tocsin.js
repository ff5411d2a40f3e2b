#!/usr/bin/env -S node --max-semi-space-size=8 --min-semi-space-size=8
// Node 24 runs the TypeScript sources directly (type stripping), so there is no build step.
// --max-semi-space-size=8 (also in `npm start`): V8's default young generation grows to 64 MiB under the check
// engine's allocation rate; capped at 3 × 8 MiB the service stays near 225 MiB RSS at 10,000 monitors for
// ~3 % more CPU per check (bench/engine, docs/BENCHMARKS.md).
// --min-semi-space-size=8: at 1,000 monitors the allocation rate is low enough that V8 keeps the young generation
// small, so a result batch's objects outlive two collections and are promoted; every full collection then marks
// the whole heap again. Fixed at 8 MiB: 7–11 % less CPU per check, the same RSS under load, ≈ 8 MiB more idle
// (docs/BENCHMARKS.md).
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /Type Stripping|stripTypeScriptTypes/i.test(warning.message)) return;
  process.stderr.write(`${warning.name}: ${warning.message}\n`);
});
// Node's compile cache (in os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it
// off): a start after the first reads the modules' compiled code instead of compiling them again, about half the CPU of
// loading the app (0.5–0.7 s of 1.2 s on the 2-core test machine; docs/BENCHMARKS.md). A cache that cannot be written
// is skipped (the call reports it, it does not throw); an entry is keyed by the source's hash, so a changed file is
// compiled again.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
// A checkout runs src/ (TypeScript, stripped by Node); the published package has no src/ but dist/, the same modules
// as JavaScript, because Node does not strip types under node_modules (tools/package/package.build.ts).
const { existsSync } = await import('node:fs');
const sources = import.meta.resolve('../src/cli/cli.main.ts');
if (existsSync(new globalThis.URL(sources))) {
  const { cacheStrippedSources } = await import('./strip-cache.js');
  cacheStrippedSources(import.meta.resolve('../src/'));
  await import(sources);
} else {
  await import(import.meta.resolve('../dist/cli/cli.main.js'));
}
