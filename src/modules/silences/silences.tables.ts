/** One silence (DECISIONS §16): who and what it holds back, and when. Matcher lists are JSON arrays (empty = any). */
export interface SilenceRow {
  id: string;
  organization_id: string;
  monitor_ids: string;
  tags: string;
  events: string;
  destination_ids: string;
  starts_at: number;
  ends_at: number;
  comment: string;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface SilencesTables {
  silence: SilenceRow;
}
