import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

/** Subscribers of status pages (DECISIONS §18): the opt-in flag, the subscribers, the messages and their deliveries. */
export const subscribersMigrations: SchemaMigration[] = [
  {
    name: '202611300500_status_pages_subscribers',
    async up(db) {
      // Opt-in: a page takes subscriptions only when its owner turns them on (default off).
      await db.schema
        .alterTable('status_page')
        .addColumn('subscriptions_enabled', col.bool, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('status_subscriber')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('status_page_id', col.id, (c) => c.notNull().references('status_page.id').onDelete('cascade'))
        .addColumn('kind', col.text, (c) => c.notNull())
        // The subscriber's address (email: lower-cased) or URL (webhook): one subscriber per page and address.
        .addColumn('address', col.text, (c) => c.notNull())
        .addColumn('confirmed_at', col.time)
        // Double opt-in: the SHA-256 of the pending confirmation link's token and when the link stops working.
        .addColumn('confirm_token_hash', col.text)
        .addColumn('confirm_expires_at', col.time)
        .addColumn('confirm_sent_at', col.time)
        // Unsubscribe links: the token's SHA-256 (looked up) and the token sealed (written into each mail).
        .addColumn('unsubscribe_token_hash', col.text, (c) => c.notNull().unique())
        .addColumn('unsubscribe_token_sealed', col.text, (c) => c.notNull())
        // Webhook subscribers: the signing secret, sealed.
        .addColumn('signing_secret_sealed', col.text)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_subscriber_page_address_idx')
        .on('status_subscriber')
        .columns(['status_page_id', 'address'])
        .unique()
        .execute();
      await db.schema
        .createIndex('status_subscriber_confirm_idx')
        .on('status_subscriber')
        .column('confirm_token_hash')
        .execute();
      // What is told to a page's subscribers, written in the transaction that decided it (a notice published, a
      // maintenance announced, started or ended); `source_key` makes each of them once.
      await db.schema
        .createTable('status_message')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('status_page_id', col.id, (c) => c.notNull().references('status_page.id').onDelete('cascade'))
        .addColumn('source_key', col.text, (c) => c.notNull().unique())
        .addColumn('event', col.text, (c) => c.notNull())
        .addColumn('subject', col.text, (c) => c.notNull())
        .addColumn('body', col.text, (c) => c.notNull())
        .addColumn('data', col.json, (c) => c.notNull())
        .addColumn('occurred_at', col.time, (c) => c.notNull())
        // The fan-out's progress: the last subscriber id given a delivery; done once every subscriber has one.
        .addColumn('fanned_out_to', col.id)
        .addColumn('fan_out_done', col.bool, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_message_pending_idx')
        .on('status_message')
        .columns(['fan_out_done', 'id'])
        .execute();
      // One delivery per subscriber per message (or one per confirmation link), with a stable id and Message-ID.
      await db.schema
        .createTable('status_delivery')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id, (c) => c.notNull().references('organization.id').onDelete('cascade'))
        .addColumn('subscriber_id', col.id, (c) => c.notNull().references('status_subscriber.id').onDelete('cascade'))
        .addColumn('message_id', col.id, (c) => c.references('status_message.id').onDelete('cascade'))
        // A confirmation mail's link token, sealed (null for messages).
        .addColumn('token_sealed', col.text)
        .addColumn('status', col.text, (c) => c.notNull())
        .addColumn('attempts', col.int, (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', col.time, (c) => c.notNull())
        .addColumn('lease_until', col.time)
        .addColumn('last_error', col.text)
        .addColumn('sent_at', col.time)
        .addColumn('created_at', col.time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('status_delivery_message_subscriber_idx')
        .on('status_delivery')
        .columns(['message_id', 'subscriber_id'])
        .unique()
        .execute();
      await db.schema
        .createIndex('status_delivery_due_idx')
        .on('status_delivery')
        .columns(['status', 'next_attempt_at'])
        .execute();
    },
  },
];
