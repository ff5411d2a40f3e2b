import type { Monitor } from '../../monitors/index.ts';
import type { MonitorTransition } from './check.types.ts';

/**
 * The batch's transitions with every parent's (DECISIONS §17, `config.depends_on`) before its children's, otherwise in
 * the order the results came: a router and the services behind it failing in one batch are judged router first, so
 * the services' incidents are held by the router's incident rather than alerted beside it. Stable; a dependency
 * outside the batch does not move anything.
 */
export function parentsFirst(
  transitions: readonly MonitorTransition[],
  monitors: ReadonlyMap<string, Pick<Monitor, 'config'>>,
): MonitorTransition[] {
  if (transitions.length < 2) return [...transitions];
  const inBatch = new Set(transitions.map((t) => t.monitorId));
  const placed = new Set<string>();
  const out: MonitorTransition[] = [];
  const visiting = new Set<string>();
  const byMonitor = new Map<string, MonitorTransition[]>();
  for (const t of transitions) byMonitor.set(t.monitorId, [...(byMonitor.get(t.monitorId) ?? []), t]);
  const place = (id: string): void => {
    if (placed.has(id) || visiting.has(id)) return; // the graph is acyclic; `visiting` only guards the walk
    visiting.add(id);
    for (const parent of monitors.get(id)?.config.depends_on ?? []) if (inBatch.has(parent)) place(parent);
    visiting.delete(id);
    placed.add(id);
    out.push(...byMonitor.get(id)!);
  };
  for (const t of transitions) place(t.monitorId);
  return out;
}
