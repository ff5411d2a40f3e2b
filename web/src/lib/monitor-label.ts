/**
 * How a picker names a monitor. Names need not be unique (two "API" monitors, one per environment), so a name that
 * more than one monitor carries gets the target (and the environment, when the targets match too) beside it.
 */
interface Named {
  id: string;
  name: string;
  target: string;
  environment?: string;
}

export function monitorLabels(monitors: readonly Named[]): Map<string, string> {
  const byName = new Map<string, Named[]>();
  for (const m of monitors) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  const labels = new Map<string, string>();
  for (const m of monitors) {
    const same = byName.get(m.name)!;
    if (same.length === 1) {
      labels.set(m.id, m.name);
      continue;
    }
    const sameTarget = same.filter((o) => o.target === m.target).length > 1;
    labels.set(m.id, `${m.name} — ${m.target}${sameTarget && m.environment ? ` (${m.environment})` : ''}`);
  }
  return labels;
}
