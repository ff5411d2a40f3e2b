/**
 * bin/strip-cache.js: a checkout's `tocsin` keeps the stripped JavaScript of its TypeScript sources beside Node's
 * compile cache and reads it at the next start instead of stripping again. Real `node bin/tocsin.js` processes with a
 * compile cache directory of their own (NODE_COMPILE_CACHE).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs `node bin/tocsin.js --version` with its compile cache in `cacheDir` (and `env` added). */
async function tocsinVersion(cacheDir: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/tocsin.js', '--version'], {
    cwd: ROOT,
    env: { ...process.env, NODE_COMPILE_CACHE: cacheDir, ...env },
  });
  return stdout;
}

/** The one directory of stripped sources under a compile cache directory (Node adds a versioned level). */
function strippedDirIn(cacheDir: string): string {
  const levels = readdirSync(cacheDir).filter((d) => existsSync(join(cacheDir, d, 'tocsin-stripped')));
  expect(levels).toHaveLength(1);
  return join(cacheDir, levels[0]!, 'tocsin-stripped');
}

/** The cache file of a source: keyed by the Node version and the source's content. */
function entryOf(dir: string, source: string): string {
  const key = createHash('sha256').update(process.version).update('\0').update(source).digest('hex');
  return join(dir, `${key}.js`);
}

describe('stripped sources cached beside the compile cache (bin/strip-cache.js)', () => {
  const dirs: string[] = [];
  const cacheDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'tocsin-strip-cache-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a first start stores each loaded source stripped as Node strips it; the next start reads it from there', async () => {
    const cache = cacheDir();
    expect(await tocsinVersion(cache)).toBe(`${VERSION}\n`);
    const dir = strippedDirIn(cache);
    const mainSource = readFileSync(join(ROOT, 'src/cli/cli.main.ts'), 'utf8');
    const versionSource = readFileSync(join(ROOT, 'src/version.ts'), 'utf8');
    for (const source of [mainSource, versionSource])
      expect(readFileSync(entryOf(dir, source), 'utf8')).toBe(stripTypeScriptTypes(source, { mode: 'strip' }));
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // The next start runs what the cache holds for an unchanged file (here an entry replaced on purpose).
    writeFileSync(entryOf(dir, mainSource), "process.stdout.write('read from the cache\\n');\n");
    expect(await tocsinVersion(cache)).toBe('read from the cache\n');
  });

  it('an entry of other content is not used: a changed file is stripped again', async () => {
    const cache = cacheDir();
    await tocsinVersion(cache);
    const dir = strippedDirIn(cache);
    const mainSource = readFileSync(join(ROOT, 'src/cli/cli.main.ts'), 'utf8');
    // What the cache would hold for the file before an edit: not the key of its current content.
    writeFileSync(entryOf(dir, `${mainSource}\n// an earlier edit\n`), "process.stdout.write('stale\\n');\n");
    expect(await tocsinVersion(cache)).toBe(`${VERSION}\n`);
  });

  it('with the compile cache turned off, nothing is stored and Node strips as usual', async () => {
    const cache = cacheDir();
    expect(await tocsinVersion(cache, { NODE_DISABLE_COMPILE_CACHE: '1' })).toBe(`${VERSION}\n`);
    expect(readdirSync(cache)).toEqual([]);
  });
});
