/** What a record says when a configuration document manages it (DECISIONS §19). */
export interface MaybeManaged {
  managed_by?: 'config';
  config_key?: string;
}

export function isManaged(record: MaybeManaged | undefined): boolean {
  return record?.managed_by === 'config';
}

/**
 * The read-only notice of a record configuration as code manages: its key, and how to change it (the API refuses
 * changes made here with 409 managed_by_config).
 */
export function ManagedNotice({ record, what }: { record: MaybeManaged | undefined; what: string }) {
  if (!isManaged(record)) return null;
  return (
    <div className="managed-notice" role="note">
      <p>
        <strong>Managed by configuration as code.</strong> This {what} is the item <code>{record?.config_key}</code> of
        your configuration document. Change it there and run <code>tocsin config apply</code>; it cannot be changed
        here.
      </p>
    </div>
  );
}
