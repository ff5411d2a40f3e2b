/** Labels of the six kinds a widget can be (DECISIONS §8), in the order the builder offers them. */
export const WIDGET_KINDS = [
  ['availability', 'Availability'],
  ['performance', 'Performance'],
  ['sla', 'SLA'],
  ['incidents', 'Incidents'],
  ['intelligence', 'Intelligence'],
  ['monitor_health', 'Monitor health'],
] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number][0];

export function kindLabel(kind: string): string {
  return WIDGET_KINDS.find(([k]) => k === kind)?.[1] ?? kind;
}
