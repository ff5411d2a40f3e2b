import type { ErrorDetail } from '../../platform/errors.ts';

/**
 * The cycle `config.depends_on` would close (DECISIONS §17), as the path from the monitor back to itself
 * (`[a, b, a]`), or null. `edges` is the organization's graph as stored (child → parent); the monitor's own stored
 * edges are replaced by `parentIds`. A monitor listing itself is the shortest cycle.
 */
export function dependencyCycle(
  edges: ReadonlyArray<{ monitorId: string; dependsOnId: string }>,
  monitorId: string,
  parentIds: readonly string[],
): string[] | null {
  const parents = new Map<string, string[]>();
  for (const e of edges) {
    if (e.monitorId === monitorId) continue;
    const list = parents.get(e.monitorId) ?? [];
    list.push(e.dependsOnId);
    parents.set(e.monitorId, list);
  }
  parents.set(monitorId, [...parentIds]);
  // Depth-first from the monitor along parent edges; reaching the monitor again is the cycle.
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | null => {
    for (const next of parents.get(id) ?? []) {
      if (next === monitorId) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return null;
  };
  return walk(monitorId, [monitorId]);
}

/** The 422 detail of a cycle, naming the entry of `depends_on` that starts it. */
export function cycleDetail(cycle: readonly string[], parentIds: readonly string[]): ErrorDetail {
  const index = Math.max(0, parentIds.indexOf(cycle[1] ?? ''));
  return {
    field: `config.depends_on[${index}]`,
    issue:
      cycle.length === 2 ? 'a monitor cannot depend on itself' : `would make a dependency cycle: ${cycle.join(' → ')}`,
  };
}
