/**
 * Import cycles among the files of one folder (relative imports and re-exports, type-only ones included: a cycle of
 * types still ties the files' meaning together). Used by import-cycles.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const RELATIVE = /(?:^|[\s;])(?:import|export)\s(?:[^;'"]*?\sfrom\s+)?['"]\.\/([^'"/]+)['"]/g;

/** The files of `dir` (tests left out) each with the files of `dir` it imports. */
export function importGraph(dir: string): Map<string, string[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(join(dir, file), 'utf8');
    const deps = [...source.matchAll(RELATIVE)].map((m) => m[1]!).filter((d) => files.includes(d));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** One path per cycle found (`a.ts -> b.ts -> a.ts`); empty when the graph has none. */
export function importCycles(graph: Map<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const dep of graph.get(file) ?? []) {
      if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep].join(' -> '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}
