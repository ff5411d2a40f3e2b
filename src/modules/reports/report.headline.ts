/**
 * The headline figures of a built report (or custom report document), for a scheduled run's chat messages and the
 * webhook's `data.summary`, taken from the object the run built (not from its JSON file again): the
 * report's own `summary` object where it has one (availability, incidents, intelligence), else counts of what it
 * lists (monitors, SLA targets with how many are in progress and have spent their budget, findings, sections).
 */
export function reportHeadline(built: object): Record<string, unknown> {
  const report = built as Record<string, unknown>;
  if (report.summary !== null && typeof report.summary === 'object' && !Array.isArray(report.summary)) {
    return report.summary as Record<string, unknown>;
  }
  const out: Record<string, unknown> = {};
  const list = (key: string) => (Array.isArray(report[key]) ? (report[key] as Array<Record<string, unknown>>) : null);
  const monitors = list('monitors');
  if (monitors) {
    out.monitors = monitors.length;
    const findings = monitors.reduce((n, m) => n + (Array.isArray(m.findings) ? m.findings.length : 0), 0);
    if (monitors.some((m) => Array.isArray(m.findings))) out.findings = findings;
  }
  const targets = list('targets');
  if (targets) {
    out.targets = targets.length;
    // A current period is never met or missed (it is not over): in progress, and whether its budget is spent.
    const current = (t: Record<string, unknown>) =>
      (t.current as { status?: unknown; error_budget_exhausted?: unknown } | undefined) ?? {};
    out.in_progress = targets.filter((t) => current(t).status === 'in_progress').length;
    out.budget_exhausted = targets.filter((t) => current(t).error_budget_exhausted === true).length;
  }
  const events = list('events');
  if (events) out.events = events.length;
  const sections = list('sections');
  if (sections) out.sections = sections.length;
  return out;
}
