export interface AuditEntryRow {
  id: string;
  organization_id: string | null;
  at: number;
  actor_type: string;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: string;
  ip: string | null;
  request_id: string | null;
}

export interface AuditTables {
  audit_entry: AuditEntryRow;
}
