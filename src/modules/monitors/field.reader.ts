import type { ErrorDetail } from '../../platform/errors.ts';

/**
 * Reads fields of untrusted input, collecting every problem with its dotted path instead of
 * stopping at the first, so one 422 lists all of them.
 */
export class FieldReader {
  readonly details: ErrorDetail[] = [];

  fail(field: string, issue: string): undefined {
    this.details.push({ field, issue });
    return undefined;
  }

  isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  object(field: string, value: unknown): Record<string, unknown> | undefined {
    if (this.isObject(value)) return value;
    return this.fail(field, 'must be an object');
  }

  rejectUnknown(prefix: string, value: Record<string, unknown>, known: readonly string[], what: string): void {
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) this.fail(prefix ? `${prefix}.${key}` : key, `is not a known field for ${what}`);
    }
  }

  string(
    field: string,
    value: unknown,
    opts: { min?: number; max: number; pattern?: RegExp; patternIssue?: string },
  ): string | undefined {
    if (typeof value !== 'string') return this.fail(field, 'must be a string');
    if (value.length < (opts.min ?? 0))
      return this.fail(field, opts.min === 1 ? 'must not be empty' : `must be at least ${opts.min} characters`);
    if (value.length > opts.max) return this.fail(field, `must be at most ${opts.max} characters`);
    if (opts.pattern && !opts.pattern.test(value))
      return this.fail(field, opts.patternIssue ?? 'has an invalid format');
    return value;
  }

  integer(field: string, value: unknown, min: number, max: number): number | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.fail(field, 'must be an integer');
    if (value < min || value > max) return this.fail(field, `must be between ${min} and ${max}`);
    return value;
  }

  boolean(field: string, value: unknown): boolean | undefined {
    if (typeof value !== 'boolean') return this.fail(field, 'must be true or false');
    return value;
  }

  oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): T | undefined {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    return this.fail(field, `must be one of ${allowed.join(', ')}`);
  }

  array(field: string, value: unknown, max: number): unknown[] | undefined {
    if (!Array.isArray(value)) return this.fail(field, 'must be an array');
    if (value.length > max) return this.fail(field, `must have at most ${max} items`);
    return value;
  }

  stringArray(
    field: string,
    value: unknown,
    max: number,
    item: (field: string, v: string) => boolean,
    itemIssue: string,
  ): string[] | undefined {
    const arr = this.array(field, value, max);
    if (!arr) return undefined;
    const out: string[] = [];
    let ok = true;
    arr.forEach((v, i) => {
      if (typeof v !== 'string') {
        this.fail(`${field}[${i}]`, 'must be a string');
        ok = false;
      } else if (!item(`${field}[${i}]`, v)) {
        this.fail(`${field}[${i}]`, itemIssue);
        ok = false;
      } else if (out.includes(v)) {
        this.fail(`${field}[${i}]`, 'is listed twice');
        ok = false;
      } else out.push(v);
    });
    return ok ? out : undefined;
  }
}
