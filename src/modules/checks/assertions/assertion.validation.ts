import { JSONPath } from 'jsonpath-plus';
import type { AssertionIssue } from './assertion.types.ts';

/** Allowed fields and operators per assertion type. */
const SHAPES: Record<string, { fields: readonly string[]; operators: readonly string[] }> = {
  status: { fields: [], operators: ['equals', 'in'] },
  response_time: { fields: [], operators: ['less_than'] },
  header: { fields: ['name'], operators: ['equals', 'contains', 'matches'] },
  body: { fields: [], operators: ['contains', 'not_contains', 'matches'] },
  json: { fields: ['path'], operators: ['equals', 'contains', 'exists'] },
};

export const ASSERTION_TYPES: readonly string[] = Object.keys(SHAPES);
export const MAX_PATTERN_LENGTH = 1000;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isStatusCode(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 599;
}

/** Returns an issue text when `pattern` is not a usable JS regular expression. */
export function regexIssue(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern);
    return null;
  } catch (err) {
    return `must be a valid regular expression (${(err as Error).message})`;
  }
}

/** Returns an issue text when `path` is not a JSONPath expression we accept (`$`-rooted, balanced, evaluable). */
export function jsonPathIssue(path: string): string | null {
  if (path.length === 0) return 'must not be empty';
  if (path.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  if (!path.startsWith('$')) return 'must be a JSONPath expression starting with $';
  if (/\.{3,}/.test(path) || (path.endsWith('.') && !path.endsWith('..')) || path.endsWith('..')) {
    return 'must be a valid JSONPath expression';
  }
  // Balanced brackets and parentheses outside quoted strings.
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = 1; i < path.length; i++) {
    const c = path[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '[' || c === '(') stack.push(c);
    else if (c === ']' || c === ')') {
      const open = stack.pop();
      if ((c === ']' && open !== '[') || (c === ')' && open !== '('))
        return 'must be a valid JSONPath expression (unbalanced brackets)';
    } else if (stack.length === 0 && /\s/.test(c)) return 'must be a valid JSONPath expression (unexpected whitespace)';
  }
  if (quote || stack.length > 0) return 'must be a valid JSONPath expression (unbalanced brackets or quotes)';
  if (/\[\s*\]/.test(path)) return 'must be a valid JSONPath expression (empty brackets)';
  // Filter/script expressions: evaluate once against sample documents with the safe evaluator.
  try {
    for (const json of [{}, [], { a: [{ b: 1 }] }]) JSONPath({ path, json, wrap: true, eval: 'safe' });
  } catch (err) {
    return `must be a valid JSONPath expression (${(err as Error).message})`;
  }
  return null;
}

/**
 * Strict validation of one assertion. `fieldPrefix` names it in the request, e.g. `config.assertions[0]`;
 * issues name fields precisely, e.g. `config.assertions[0].equals`.
 */
export function validateAssertion(a: unknown, fieldPrefix: string): AssertionIssue[] {
  const issues: AssertionIssue[] = [];
  const at = (f: string): string => `${fieldPrefix}.${f}`;
  if (!isPlainObject(a)) return [{ field: fieldPrefix, issue: 'must be an object' }];
  const type = a.type;
  if (type === undefined) return [{ field: at('type'), issue: 'is required' }];
  if (typeof type !== 'string' || !(type in SHAPES)) {
    return [{ field: at('type'), issue: `must be one of ${ASSERTION_TYPES.join(', ')}` }];
  }
  const shape = SHAPES[type];
  for (const key of Object.keys(a)) {
    if (key !== 'type' && !shape.fields.includes(key) && !shape.operators.includes(key)) {
      issues.push({ field: at(key), issue: `is not allowed for a ${type} assertion` });
    }
  }
  for (const f of shape.fields) {
    if (a[f] === undefined) issues.push({ field: at(f), issue: 'is required' });
  }
  const ops = shape.operators.filter((op) => a[op] !== undefined);
  if (ops.length === 0) {
    issues.push({ field: fieldPrefix, issue: `needs exactly one of ${shape.operators.join(', ')}` });
  } else if (ops.length > 1) {
    for (const op of ops.slice(1))
      issues.push({ field: at(op), issue: `only one of ${shape.operators.join(', ')} is allowed` });
  }

  const str = (f: string, extra?: (v: string) => string | null): void => {
    const v = a[f];
    if (v === undefined) return;
    if (typeof v !== 'string') issues.push({ field: at(f), issue: 'must be a string' });
    else if (extra) {
      const problem = extra(v);
      if (problem) issues.push({ field: at(f), issue: problem });
    }
  };
  const nonEmpty = (v: string): string | null => (v.length === 0 ? 'must not be empty' : null);

  switch (type) {
    case 'status': {
      if (a.equals !== undefined && !isStatusCode(a.equals))
        issues.push({ field: at('equals'), issue: 'must be an integer HTTP status (100-599)' });
      if (a.in !== undefined) {
        if (!Array.isArray(a.in) || a.in.length === 0)
          issues.push({ field: at('in'), issue: 'must be a non-empty array of HTTP statuses' });
        else
          a.in.forEach((s, i) => {
            if (!isStatusCode(s))
              issues.push({ field: `${at('in')}[${i}]`, issue: 'must be an integer HTTP status (100-599)' });
          });
      }
      break;
    }
    case 'response_time': {
      const v = a.less_than;
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)) {
        issues.push({ field: at('less_than'), issue: 'must be a positive number of milliseconds' });
      }
      break;
    }
    case 'header': {
      str('name', (v) => (HEADER_NAME.test(v) ? null : 'must be an HTTP header name'));
      str('equals');
      str('contains', nonEmpty);
      str('matches', regexIssue);
      break;
    }
    case 'body': {
      str('contains', nonEmpty);
      str('not_contains', nonEmpty);
      str('matches', regexIssue);
      break;
    }
    case 'json': {
      str('path', jsonPathIssue);
      if (a.exists !== undefined && typeof a.exists !== 'boolean')
        issues.push({ field: at('exists'), issue: 'must be a boolean' });
      // equals / contains take any JSON value; null is a legitimate expected value.
      break;
    }
  }
  return issues;
}

/** Validates an `assertions` array; `fieldPrefix` e.g. `config.assertions`. */
export function validateAssertions(list: unknown, fieldPrefix: string): AssertionIssue[] {
  if (!Array.isArray(list)) return [{ field: fieldPrefix, issue: 'must be an array' }];
  return list.flatMap((a, i) => validateAssertion(a, `${fieldPrefix}[${i}]`));
}

/** True when evaluating this assertion needs the response body. */
export function assertionNeedsBody(a: { type: string }): boolean {
  return a.type === 'body' || a.type === 'json';
}
