import type { ConfigIssue } from './destination.contract.ts';

/** Returns an issue text, or null when the value is fine. */
export type FieldCheck = (value: unknown) => string | null;

export interface FieldRule {
  required: boolean;
  check: FieldCheck;
}

/** Validates a config object strictly: required fields present, every value checked, unknown keys rejected. */
export function validateFields(config: unknown, rules: Record<string, FieldRule>): ConfigIssue[] {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    return [{ field: 'config', issue: 'must be an object' }];
  }
  const issues: ConfigIssue[] = [];
  const obj = config as Record<string, unknown>;
  for (const [field, rule] of Object.entries(rules)) {
    const value = obj[field];
    if (value === undefined || value === null) {
      if (rule.required) issues.push({ field: `config.${field}`, issue: 'is required' });
      continue;
    }
    const issue = rule.check(value);
    if (issue) issues.push({ field: `config.${field}`, issue });
  }
  for (const key of Object.keys(obj)) {
    if (!(key in rules)) issues.push({ field: `config.${key}`, issue: 'is not a known field' });
  }
  return issues;
}

export const required = (check: FieldCheck): FieldRule => ({ required: true, check });
export const optional = (check: FieldCheck): FieldRule => ({ required: false, check });

export function nonEmptyString(max = 1000): FieldCheck {
  return (v) => {
    if (typeof v !== 'string' || v.trim() === '') return 'must be a non-empty string';
    if (v.length > max) return `must be at most ${max} characters`;
    return null;
  };
}

export function matching(pattern: RegExp, description: string): FieldCheck {
  return (v) => (typeof v === 'string' && pattern.test(v) ? null : `must be ${description}`);
}

export function oneOf(values: readonly string[]): FieldCheck {
  return (v) => (typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An https URL. Plain http is accepted only for loopback hosts (local development and the test fakes);
 * the private-network (SSRF) policy is enforced at send time by the pipeline, not here.
 */
export const httpsUrl: FieldCheck = (v) => {
  if (typeof v !== 'string' || v.length > 2048) return 'must be an https URL';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'must be an https URL';
  }
  if (u.username || u.password) return 'must not contain credentials';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK.has(u.hostname)) return null;
  return 'must be an https URL';
};

export const emailAddress: FieldCheck = (v) =>
  typeof v === 'string' && v.length <= 254 && /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/.test(v)
    ? null
    : 'must be an email address';
