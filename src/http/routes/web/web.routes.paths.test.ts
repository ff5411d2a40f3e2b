import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEB_PAGE_PATHS } from './web.routes.ts';

/** Every path the web app routes in the browser (web/src/routes.tsx), as written there. */
function appRoutePaths(): string[] {
  const source = readFileSync(new URL('../../../../web/src/routes.tsx', import.meta.url), 'utf8');
  return [...source.matchAll(/path: '([^']+)'/g)].map((m) => m[1]!).filter((p) => p !== '*');
}

/** Whether the server answers the app's page at `path` (a `:param` matches one segment, `/*` any rest). */
function served(path: string): boolean {
  const concrete = path.replace(/:[^/]+/g, 'x');
  return WEB_PAGE_PATHS.some((p) => (p.endsWith('/*') ? concrete.startsWith(p.slice(0, -1)) : concrete === p));
}

describe('the server answers every page of the web app (a reload or a shared link does not 404)', () => {
  it('covers each route of web/src/routes.tsx', () => {
    const paths = appRoutePaths();
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((p) => !served(p))).toEqual([]);
  });
});
