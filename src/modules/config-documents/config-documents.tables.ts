/**
 * An item that configuration apply made and manages (DECISIONS §19): which record of which kind its key stands for,
 * and the item as last applied (references as keys, secret values as hashes), which the next plan compares with.
 */
export interface ConfigItemRow {
  organization_id: string;
  kind: string;
  key: string;
  item_id: string;
  applied: string;
  applied_at: number;
}

export interface ConfigDocumentsTables {
  config_item: ConfigItemRow;
}
