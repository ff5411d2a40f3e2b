import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file of the built web app, held in memory (the build is well under a megabyte). */
export interface WebAsset {
  body: Buffer;
  type: string;
  /** The gzip form, made on first request (every test app loads the build; few are asked for it). */
  gzip(): Buffer | null;
}

export interface WebBuild {
  index: WebAsset;
  /** Hashed files under /assets/, by file name. */
  assets: Map<string, WebAsset>;
  /** Unhashed files at the root of the build (favicon …), by file name. */
  root: Map<string, WebAsset>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
// Text compresses well; images and fonts are compressed already.
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.map', '.txt']);

function load(path: string): WebAsset {
  const body = readFileSync(path);
  const ext = extname(path);
  let gzipped: Buffer | null | undefined;
  return {
    body,
    type: TYPES[ext] ?? 'application/octet-stream',
    gzip: () => (gzipped ??= COMPRESSIBLE.has(ext) && body.length > 512 ? gzipSync(body, { level: 9 }) : null),
  };
}

/** Where `npm run web:build` writes the app. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

/**
 * Reads `web/dist` (the output of `npm run web:build`) once at start-up. Only the files listed here are ever
 * served, so no request path reaches the file system. Null when the app has not been built.
 */
export function loadWebBuild(distDir: string): WebBuild | null {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const assets = new Map<string, WebAsset>();
  const assetsDir = join(distDir, 'assets');
  if (existsSync(assetsDir)) {
    for (const entry of readdirSync(assetsDir, { withFileTypes: true })) {
      if (entry.isFile()) assets.set(entry.name, load(join(assetsDir, entry.name)));
    }
  }
  const root = new Map<string, WebAsset>();
  for (const entry of readdirSync(distDir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name !== 'index.html') root.set(entry.name, load(join(distDir, entry.name)));
  }
  return { index: load(indexPath), assets, root };
}
