import type { SchemaMigration } from '../../platform/db/index.ts';
import { col } from '../../platform/db/index.ts';

export const auditMigrations: SchemaMigration[] = [
  {
    name: '202611281000_audit_entries',
    async up(db) {
      // No foreign key to the organization: the record of who did what outlives what it names. Failed sign-ins
      // for an unknown address belong to no organization (organization_id null) and are listed to nobody.
      await db.schema
        .createTable('audit_entry')
        .addColumn('id', col.id, (c) => c.primaryKey())
        .addColumn('organization_id', col.id)
        .addColumn('at', col.time, (c) => c.notNull())
        .addColumn('actor_type', col.text, (c) => c.notNull())
        .addColumn('actor_id', col.text)
        .addColumn('actor_name', col.text, (c) => c.notNull())
        .addColumn('action', col.text, (c) => c.notNull())
        .addColumn('target_type', col.text, (c) => c.notNull())
        .addColumn('target_id', col.text)
        .addColumn('changes', col.json, (c) => c.notNull())
        .addColumn('ip', col.text)
        .addColumn('request_id', col.text)
        .execute();
      // Lists are newest first by id (time-sortable) within an organization.
      await db.schema.createIndex('audit_entry_org_idx').on('audit_entry').columns(['organization_id', 'id']).execute();
    },
  },
];
