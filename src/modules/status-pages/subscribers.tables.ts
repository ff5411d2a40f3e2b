export interface StatusSubscriberRow {
  id: string;
  organization_id: string;
  status_page_id: string;
  kind: string;
  address: string;
  confirmed_at: number | null;
  confirm_token_hash: string | null;
  confirm_expires_at: number | null;
  confirm_sent_at: number | null;
  unsubscribe_token_hash: string;
  unsubscribe_token_sealed: string;
  signing_secret_sealed: string | null;
  created_at: number;
}

export interface StatusMessageRow {
  id: string;
  organization_id: string;
  status_page_id: string;
  source_key: string;
  event: string;
  subject: string;
  body: string;
  data: string;
  occurred_at: number;
  fanned_out_to: string | null;
  fan_out_done: number;
  created_at: number;
}

export interface StatusDeliveryRow {
  id: string;
  organization_id: string;
  subscriber_id: string;
  message_id: string | null;
  token_sealed: string | null;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  last_error: string | null;
  sent_at: number | null;
  created_at: number;
}

export interface SubscribersTables {
  status_subscriber: StatusSubscriberRow;
  status_message: StatusMessageRow;
  status_delivery: StatusDeliveryRow;
  status_page: { id: string; organization_id: string; slug: string; title: string; subscriptions_enabled: number };
}
