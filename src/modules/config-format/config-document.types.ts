/** The kinds a configuration document (DECISIONS §19) lists, in the order apply creates them. */
export const CONFIG_DOCUMENT_KINDS = [
  'destinations',
  'monitors',
  'status_pages',
  'maintenance_windows',
  'sla_targets',
  'custom_reports',
  'scheduled_reports',
] as const;
export type ConfigDocumentKind = (typeof CONFIG_DOCUMENT_KINDS)[number];

/** An item's `key`: stable, unique per kind, what other items name it by. */
export const ITEM_KEY_PATTERN = '^[a-z0-9-]{1,64}$';

export interface ConfigItem {
  key: string;
  [field: string]: unknown;
}

export type ConfigDocument = { version: 1 } & Partial<Record<ConfigDocumentKind, ConfigItem[]>>;

/** A problem with a document, at a field path like `monitors[2].config.alert_destinations[0]`. */
export interface DocumentProblem {
  field: string;
  issue: string;
}
