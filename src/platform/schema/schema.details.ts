import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from '../errors.ts';

export function pathToField(instancePath: string): string {
  let field = '';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    field += /^\d+$/.test(key) ? `[${key}]` : field === '' ? key : `.${key}`;
  }
  return field;
}

function join(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/** Turns Ajv errors into `details` with dotted field paths like `config.assertions[0].equals`. */
export function detailsFromAjv(errors: ErrorObject[], prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const push = (field: string, issue: string) => {
    const key = `${field}|${issue}`;
    if (seen.has(key)) return;
    seen.add(key);
    details.push({ field: field === '' ? prefix || 'body' : prefix ? join(prefix, field) : field, issue });
  };
  // A union of literals fails once per branch: report one "must be one of …" per field instead.
  const constsAt = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword === 'const')
      constsAt.set(e.instancePath, [...(constsAt.get(e.instancePath) ?? []), e.params.allowedValue]);
  }
  // Union branches produce one error per branch; keep the most useful ones.
  for (const e of errors) {
    const field = pathToField(e.instancePath);
    const schema = e.parentSchema as Record<string, unknown> | undefined;
    // A pattern may name its own issue (e.g. one that means "no control characters").
    const custom = schema?.['x-issue'];
    if (typeof custom === 'string' && e.keyword === 'pattern') {
      push(field, custom);
      continue;
    }
    // A schema may word the issue of any of its keywords (`'x-issues': { minimum: 'must be between 1 and 100' }`).
    const worded = (schema?.['x-issues'] as Record<string, unknown> | undefined)?.[e.keyword];
    const say = (at: string, issue: string) => push(at, typeof worded === 'string' ? worded : issue);
    const allowed = constsAt.get(e.instancePath);
    if (allowed && allowed.length > 1 && (e.keyword === 'const' || e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
      push(field, `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
      continue;
    }
    switch (e.keyword) {
      case 'required':
        say(join(field, String(e.params.missingProperty)), 'is required');
        break;
      case 'additionalProperties':
        say(join(field, String(e.params.additionalProperty)), 'is not a known field');
        break;
      case 'type':
        say(field, `must be ${String(e.params.type).replace(/,/g, ' or ')}`);
        break;
      case 'enum':
        say(field, `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'const':
        say(field, `must be ${JSON.stringify(e.params.allowedValue)}`);
        break;
      case 'discriminator': {
        const tags = ((e.parentSchema?.oneOf ?? []) as Array<{ properties?: Record<string, { const?: unknown }> }>)
          .map((branch) => branch.properties?.[String(e.params.tag)]?.const)
          .filter((v) => v !== undefined);
        say(join(field, String(e.params.tag)), `must be one of ${tags.map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      }
      case 'anyOf':
      case 'oneOf':
        if (!errors.some((o) => o !== e && o.instancePath === e.instancePath && o.keyword !== e.keyword)) {
          say(field, 'does not match any allowed shape');
        }
        break;
      case 'minimum':
        say(field, `must be at least ${String(e.params.limit)}`);
        break;
      case 'maximum':
        say(field, `must be at most ${String(e.params.limit)}`);
        break;
      case 'minLength':
        say(
          field,
          Number(e.params.limit) === 1 ? 'must not be empty' : `must be at least ${String(e.params.limit)} characters`,
        );
        break;
      case 'maxLength':
        say(field, `must be at most ${String(e.params.limit)} characters`);
        break;
      case 'uniqueItems':
        // Ajv names the later of the two equal items as `j`: that one is the repeat.
        say(`${field}[${String(e.params.j)}]`, 'is listed twice');
        break;
      case 'format':
        say(field, `must be a valid ${String(e.params.format)}`);
        break;
      default:
        say(field, e.message ?? 'is not valid');
    }
  }
  return oneDetailPerUnion(details, errors, prefix);
}

/**
 * A value that matches no branch of a union fails once per branch ("must be a valid date-time", "must be null"),
 * which reads as a contradiction: say it once per field ("must be a valid date-time or null").
 */
function oneDetailPerUnion(details: ErrorDetail[], errors: ErrorObject[], prefix: string): ErrorDetail[] {
  const unionFields = new Set(
    errors
      .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
      .map((e) => {
        const field = pathToField(e.instancePath);
        return field === '' ? prefix || 'body' : prefix ? join(prefix, field) : field;
      }),
  );
  const merged: ErrorDetail[] = [];
  for (const d of details) {
    if (!unionFields.has(d.field)) {
      merged.push(d);
      continue;
    }
    const first = merged.find((m) => m.field === d.field);
    if (!first) merged.push({ ...d });
    else if (first.issue.startsWith('must be ') && d.issue.startsWith('must be '))
      first.issue = `${first.issue} or ${d.issue.slice('must be '.length)}`;
  }
  return merged;
}
