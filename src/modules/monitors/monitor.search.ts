/**
 * What the list's text search and name sort compare: kept in columns of their own (`search_text`, `sort_name`)
 * because SQLite's lower() folds ASCII only and PostgreSQL's follows its locale, so lowering in SQL would find and
 * order differently on the two databases. Lowered here once, on every write, the same way for both.
 */
export function searchTextOf(name: string, target: string): string {
  // A newline between them: search input has no control characters, so a match never spans the two.
  return `${name}\n${target}`.toLowerCase();
}

export function sortNameOf(name: string): string {
  return name.toLowerCase();
}

/** The needle as the columns hold text. */
export function searchNeedleOf(q: string): string {
  return q.toLowerCase();
}

/**
 * `needle` as one FTS5 phrase (double quotes doubled): a trigram table matches it as a substring, case and all,
 * when it has at least three characters (shorter ones match nothing there, so they are tested by scanning).
 */
export function ftsPhraseOf(needle: string): string | null {
  return [...needle].length >= 3 ? `"${needle.replaceAll('"', '""')}"` : null;
}

/** `needle` for a LIKE '%…%' with the default escape character (PostgreSQL's backslash). */
export function likeContains(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
