// The JavaScript of a checkout's TypeScript sources, kept beside Node's compile cache. Node strips the types of every
// .ts module again at each start (its compile cache keeps the compiled code, not the stripped source): about 0.5 s of
// the 1.2–1.3 s of CPU a `tocsin serve` start takes on the 2-core test machine (docs/BENCHMARKS.md). A load hook reads
// a module's stripped source from the cache when the file is unchanged (keyed by a hash of its content and the Node
// version), and strips and stores it otherwise. Only for files under `src/`; everything else loads as before.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { getCompileCacheDir, registerHooks, stripTypeScriptTypes } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Registers the hook for the modules under `srcUrl` (a file: URL ending in `/`). Without Node's compile cache (turned
 * off by NODE_DISABLE_COMPILE_CACHE=1, or not writable) or without the hooks API, nothing is registered and Node strips
 * as usual.
 */
export function cacheStrippedSources(srcUrl) {
  const compileCache = getCompileCacheDir?.();
  if (!compileCache || typeof registerHooks !== 'function' || typeof stripTypeScriptTypes !== 'function') return;
  const dir = join(compileCache, 'tocsin-stripped');
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    return;
  }
  registerHooks({
    load(url, context, nextLoad) {
      if (!url.startsWith(srcUrl) || !url.endsWith('.ts')) return nextLoad(url, context);
      const source = readFileSync(fileURLToPath(url), 'utf8');
      const key = createHash('sha256').update(process.version).update('\0').update(source).digest('hex');
      const file = join(dir, `${key}.js`);
      let stripped;
      try {
        stripped = readFileSync(file, 'utf8');
      } catch {
        // The same stripping as Node's own for .ts modules: types replaced by blanks, so lines and columns stay put.
        stripped = stripTypeScriptTypes(source, { mode: 'strip' });
        // Written whole under another name, then renamed: a process starting beside this one reads all or nothing.
        const partial = `${file}.${process.pid}.tmp`;
        try {
          writeFileSync(partial, stripped);
          renameSync(partial, file);
        } catch {
          // A cache that cannot be written is skipped, as Node's compile cache is.
        }
      }
      return { format: 'module', source: stripped, shortCircuit: true };
    },
  });
}
