import type { ValidateFunction } from 'ajv';
import { documentKeyProblems, type ConfigDocument } from '../../modules/config-format/index.ts';
import { detailsFromAjv, newAjv } from '../../platform/schema/index.ts';
import { mergeSources, type MergedDocument } from './config-document.merge.ts';
import { shippedConfigSchema } from './config-document.schema-file.ts';
import { withSecrets } from './config-document.secrets.ts';
import { parseSource, type ConfigProblem, type ParsedSource } from './config-source.parse.ts';
import type { ConfigSource } from './config-source.read.ts';

export interface CheckedDocument {
  /** The document with its secrets in place, when there is no problem. */
  document: ConfigDocument | null;
  /** Every problem at once, by file, line and column. */
  problems: ConfigProblem[];
  /** Fields that took a `${env:NAME}` (`destinations[0].config.url`): sent so the server keeps only their hashes. */
  secretFields: string[];
  /** Places a problem the server names (`document.monitors[3].config.timeout_ms`) in the files. */
  locate(field: string, issue: string): ConfigProblem;
}

/**
 * Checks a document offline, as `tocsin config validate` does: YAML, the document schema (the API's own schemas and
 * issue texts), keys and references, `${env:NAME}` secrets. A server may still refuse what needs its data (a region
 * it does not run, a plan's limits); plan says so.
 */
export function checkConfigSources(
  sources: ConfigSource[],
  env: (name: string) => string | undefined,
): CheckedDocument {
  const problems: ConfigProblem[] = [];
  const parsed: ParsedSource[] = [];
  for (const source of sources) {
    const result = parseSource(source);
    problems.push(...result.problems);
    if (result.parsed) parsed.push(result.parsed);
  }
  const unplaced = (field: string, issue: string) => ({ file: '', line: 0, column: 0, message: `${field} ${issue}` });
  if (parsed.length === 0) return { document: null, problems: sorted(problems), secretFields: [], locate: unplaced };
  const { merged, problems: mergeProblems } = mergeSources(parsed);
  problems.push(...mergeProblems);
  const at = located(merged);
  const secrets = withSecrets(merged.value, env);
  problems.push(...secrets.problems.map(at));
  const value = withDefaultMonitorType(secrets.value as Record<string, unknown>);
  const validate = documentValidator();
  if (!validate(value)) problems.push(...detailsFromAjv(validate.errors ?? []).map(at));
  problems.push(...documentKeyProblems(value as ConfigDocument).map(at));
  const locate = (field: string, issue: string) => at({ field: field.replace(/^document\.?/, '') || 'body', issue });
  return problems.length === 0
    ? { document: value as ConfigDocument, problems: [], secretFields: secrets.secretFields, locate }
    : { document: null, problems: sorted(problems), secretFields: secrets.secretFields, locate };
}

let compiled: ValidateFunction | undefined;
/**
 * Compiled once per process (a CLI run): the schema is large. Without ajv's code optimisation passes: a CLI run
 * validates one document, and compiling is most of the check's time (≈ 0.5 s, a third of that the passes; bench/config).
 */
function documentValidator(): ValidateFunction {
  compiled ??= newAjv({ coerce: false, optimize: false }).compile(shippedConfigSchema());
  return compiled;
}

/** A monitor's `type` is http when absent, as in the API (the schema chooses the branch by it). */
function withDefaultMonitorType(document: Record<string, unknown>): Record<string, unknown> {
  const monitors = document.monitors;
  if (!Array.isArray(monitors)) return document;
  return {
    ...document,
    monitors: monitors.map((item: unknown) =>
      typeof item === 'object' && item !== null && !Array.isArray(item) && !('type' in item)
        ? { ...item, type: 'http' }
        : item,
    ),
  };
}

function located(merged: MergedDocument) {
  return ({ field, issue }: { field: string; issue: string }): ConfigProblem => {
    // A field that should not be there is pointed at by its name; any other by its value.
    const place = merged.locate(field, issue.startsWith('is not a known') ? 'key' : 'value');
    const within = place.item ? field.replace(/^[a-z_]+\[\d+\]\.?/, '') : field;
    const subject = place.item
      ? `${place.item}${within ? `: ${within}` : ''}`
      : field === 'body'
        ? 'the document'
        : field;
    return { file: place.file, line: place.line, column: place.column, message: `${subject} ${issue}` };
  };
}

function sorted(problems: ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort(
    (a, b) =>
      a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.message.localeCompare(b.message),
  );
}

export function formatProblem(problem: ConfigProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.message}`;
}
