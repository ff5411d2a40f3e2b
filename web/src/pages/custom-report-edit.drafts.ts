// Explicit extensions: test/web/custom-report-widgets.test.ts imports this file under the server's module rules.
import type { components } from '../api/schema.d.ts';
import { kindLabel, type WidgetKind } from '../lib/custom-report.kinds.ts';

/** A widget as the builder edits it; `key` keeps React's identity (and focus) across moves. */
export interface WidgetDraft {
  key: string;
  kind: WidgetKind;
  title: string;
  scope: 'all' | 'monitors' | 'tags';
  monitorIds: string[];
  tags: string;
  slaTargetIds: string[];
}

type WidgetBody = components['schemas']['CustomReport']['widgets'][number];

export function draftOf(w: WidgetBody): WidgetDraft {
  return {
    key: crypto.randomUUID(),
    kind: w.kind,
    title: w.title,
    scope: w.monitor_ids !== undefined ? 'monitors' : w.tags !== undefined ? 'tags' : 'all',
    monitorIds: w.monitor_ids ?? [],
    tags: (w.tags ?? []).join(', '),
    slaTargetIds: w.options?.sla_target_ids ?? [],
  };
}

export function newDraft(kind: WidgetKind, taken: readonly string[]): WidgetDraft {
  // Titles must be distinct within a report: "Availability", then "Availability 2" …
  let title = kindLabel(kind);
  for (let n = 2; taken.includes(title); n++) title = `${kindLabel(kind)} ${n}`;
  return { key: crypto.randomUUID(), kind, title, scope: 'all', monitorIds: [], tags: '', slaTargetIds: [] };
}

/** The body of one widget: only the scope chosen is sent (an empty list is sent as is, for the API to refuse). */
export function bodyOf(d: WidgetDraft): WidgetBody {
  const tags = d.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    kind: d.kind,
    title: d.title,
    ...(d.scope === 'monitors' && { monitor_ids: d.monitorIds }),
    ...(d.scope === 'tags' && { tags }),
    ...(d.kind === 'sla' && d.slaTargetIds.length > 0 && { options: { sla_target_ids: d.slaTargetIds } }),
  };
}
