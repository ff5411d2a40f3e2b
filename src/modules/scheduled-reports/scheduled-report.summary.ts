/**
 * The headline figures of a rendered report (its JSON), for chat messages and the webhook's `data.summary`: the
 * report's own `summary` object where it has one (availability, incidents, intelligence), else counts of what it
 * lists (monitors, SLA targets with how many met, findings, sections).
 */
export function summaryOf(json: Buffer): Record<string, unknown> {
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(json.toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
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
    const met = (t: Record<string, unknown>) => (t.current as { met?: unknown } | undefined)?.met;
    out.met = targets.filter((t) => met(t) === true).length;
    out.missed = targets.filter((t) => met(t) === false).length;
  }
  const events = list('events');
  if (events) out.events = events.length;
  const sections = list('sections');
  if (sections) out.sections = sections.length;
  return out;
}
