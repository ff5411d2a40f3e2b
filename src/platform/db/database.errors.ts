import { redactText } from '../redact.ts';

/** Why the database could not be used at start-up, in the terms an operator acts on. */
export type DatabaseStartupFailure =
  'unreachable' | 'database_missing' | 'authentication_failed' | 'unusable' | 'migration_failed';

/**
 * The database could not be opened, reached or migrated at start-up. The message names what failed and where
 * (PostgreSQL host, port, database and user, or the SQLite file), never a password. Every failure but
 * `migration_failed` is a matter of configuration or environment: the CLI exits 2 on it, like on a configuration
 * error (`isConfigurationFailure`).
 */
export class DatabaseStartupError extends Error {
  readonly failure: DatabaseStartupFailure;
  constructor(failure: DatabaseStartupFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseStartupError';
    this.failure = failure;
  }

  /** The operator must fix the configuration or the environment (exit code 2); a failed migration is a bug (1). */
  get isConfigurationFailure(): boolean {
    return this.failure !== 'migration_failed';
  }
}

/** Where the database is, for messages: `PostgreSQL database "tocsin" on db.example:5432 as user "app"` or the file. */
export function describeDatabaseTarget(target: { url: string | null; sqlitePath: string }): string {
  if (!target.url) return `SQLite database file ${target.sqlitePath}`;
  try {
    const u = new URL(target.url);
    const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)';
    const user = u.username ? ` as user "${decodeURIComponent(u.username)}"` : '';
    return `PostgreSQL database "${database}" on ${u.hostname || 'localhost'}:${u.port || '5432'}${user}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL is not a valid URL)';
  }
}

/** The chain of causes of an error (Kysely's migrator and the CLI wrap the driver's error). */
function causes(err: unknown): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  let current: unknown = err;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    out.push(current as Record<string, unknown>);
    // AggregateError (a host with several addresses): the first attempt says enough.
    const aggregate = (current as { errors?: unknown[] }).errors;
    current = (current as { cause?: unknown }).cause ?? (Array.isArray(aggregate) ? aggregate[0] : undefined);
  }
  return out;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);
const REASON_OF_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

/**
 * Turns an error met while opening, reaching or migrating the database into a DatabaseStartupError that says
 * what failed; errors of the migrations themselves (SQL) keep their text, redacted.
 */
export function databaseStartupError(
  err: unknown,
  target: { url: string | null; sqlitePath: string },
): DatabaseStartupError {
  if (err instanceof DatabaseStartupError) return err;
  const where = describeDatabaseTarget(target);
  const chain = causes(err);
  const codeOf = (e: Record<string, unknown>) => (typeof e.code === 'string' ? e.code : '');
  const network = chain.find((e) => UNREACHABLE_CODES.has(codeOf(e)));
  if (network) {
    return new DatabaseStartupError(
      'unreachable',
      `database unreachable: cannot connect to ${where}: ${REASON_OF_CODE[codeOf(network)]}`,
      { cause: err },
    );
  }
  // PostgreSQL SQLSTATEs: 3D000 invalid_catalog_name; 28P01 invalid_password; 28000 invalid_authorization_specification
  // (also "role does not exist" and pg_hba rejections).
  if (chain.some((e) => codeOf(e) === '3D000')) {
    return new DatabaseStartupError(
      'database_missing',
      `database does not exist: ${where} (create it, or fix DATABASE_URL)`,
      { cause: err },
    );
  }
  const auth = chain.find((e) => codeOf(e) === '28P01' || codeOf(e) === '28000');
  if (auth) {
    const reason = typeof auth.message === 'string' ? `: ${redactText(auth.message)}` : '';
    return new DatabaseStartupError('authentication_failed', `database authentication failed for ${where}${reason}`, {
      cause: err,
    });
  }
  const sqliteOpen = chain.find((e) => ['SQLITE_CANTOPEN', 'EACCES', 'EROFS', 'ENOTDIR'].includes(codeOf(e)));
  if (sqliteOpen) {
    return new DatabaseStartupError(
      'unusable',
      `cannot open ${where}: ${redactText(typeof sqliteOpen.message === 'string' ? sqliteOpen.message : codeOf(sqliteOpen))}`,
      { cause: err },
    );
  }
  const text = err instanceof Error ? err.message : String(err);
  return new DatabaseStartupError('migration_failed', `database start-up failed (${where}): ${redactText(text)}`, {
    cause: err,
  });
}
