/**
 * `npm pack` (prepack): writes dist/, the sources as JavaScript, for the published package.
 * Node strips TypeScript only outside node_modules, so an installed package cannot run src/*.ts; dist/ mirrors src/
 * file for file (same depth, so `new URL('../../../assets/…', import.meta.url)` still lands in the package root)
 * with the types erased by Node's own stripper and relative `.ts` specifiers rewritten to `.js`. Tests are left out.
 * `node tools/package/package.build.ts --clean` (postpack) removes dist/ so a checkout keeps running src/.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// stripTypeScriptTypes is marked experimental; the packaged result is what test:package runs, so the notice is noise.
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (w.name !== 'ExperimentalWarning') process.stderr.write(`${w.name}: ${w.message}\n`);
});

const root = fileURLToPath(new URL('../../', import.meta.url));
const srcDir = join(root, 'src');
const distDir = join(root, 'dist');

/** A relative specifier ending in .ts inside quotes: imports, re-exports, import(), new URL(…) for workers. */
const RELATIVE_TS = /(['"`])(\.{1,2}\/[^'"`\n]*?)\.ts\1/g;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

function build(): number {
  rmSync(distDir, { recursive: true, force: true });
  let count = 0;
  for (const file of files(srcDir)) {
    if (/\.test\.ts$/.test(file) || file.includes(`${join('src', 'test')}`)) continue;
    const out = join(distDir, relative(srcDir, file));
    mkdirSync(dirname(out), { recursive: true });
    if (!file.endsWith('.ts')) {
      copyFileSync(file, out);
      continue;
    }
    const js = stripTypeScriptTypes(readFileSync(file, 'utf8'), { mode: 'strip' }).replace(
      RELATIVE_TS,
      (_m, quote: string, path: string) => `${quote}${path}.js${quote}`,
    );
    writeFileSync(out.replace(/\.ts$/, '.js'), js);
    count++;
  }
  return count;
}

if (process.argv.includes('--clean')) {
  rmSync(distDir, { recursive: true, force: true });
} else {
  process.stderr.write(`package: ${build()} modules written to dist/\n`);
}
