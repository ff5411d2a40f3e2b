export interface MonitorBadgeRow {
  id: string;
  organization_id: string;
  monitor_id: string;
  /** The public capability in the badge URLs: 24 random bytes, base64url (192 bits). */
  token: string;
  created_at: number;
}

export interface BadgesTables {
  monitor_badge: MonitorBadgeRow;
}
