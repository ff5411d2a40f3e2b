/**
 * The building blocks of the destination types' config schemas (TypeBox, the routes' vocabulary). Each block carries
 * the issue texts of its rule (`x-issues`), so the API's 422 and a provider's own check say the same thing; a field
 * marked `writeOnly` is a secret: sealed at rest and masked on read.
 */
import { Type, type TObject, type TProperties, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';

const NON_EMPTY = 'must be a non-empty string';

interface FieldOptions {
  description: string;
  /** Sealed at rest, masked on read, never shown in full again. */
  secret?: boolean;
}

const secrecy = (options: FieldOptions) => (options.secret ? { writeOnly: true } : {});

/** A type's whole config: an object with exactly these fields (unknown keys are refused). */
export function configObject<P extends TProperties>(properties: P, description?: string): TObject<P> {
  return Type.Object(properties, {
    additionalProperties: false,
    'x-issues': { type: 'must be an object' },
    ...(description && { description }),
  });
}

/** Text with something other than spaces in it, at most `max` characters. */
export function nonEmptyText(max: number, options: FieldOptions): TString {
  return Type.String({
    minLength: 1,
    maxLength: max,
    pattern: '\\S',
    description: options.description,
    ...secrecy(options),
    'x-issues': { type: NON_EMPTY, minLength: NON_EMPTY, pattern: NON_EMPTY },
  });
}

/** A string of one shape (a channel id, a token …); `what` completes "must be …". */
export function matching(pattern: string, what: string, options: FieldOptions): TString {
  const issue = `must be ${what}`;
  return Type.String({
    pattern,
    description: options.description,
    ...secrecy(options),
    'x-issues': { type: issue, pattern: issue },
  });
}

/** One of a few words. */
export function oneOf<T extends string>(values: readonly T[], description: string): TUnsafe<T> {
  const issue = `must be one of ${values.join(', ')}`;
  return Type.Unsafe<T>({ type: 'string', enum: [...values], description, 'x-issues': { type: issue, enum: issue } });
}

/**
 * An https URL without credentials. Plain http is accepted only for loopback hosts (local development and the test
 * fakes); the private-network (SSRF) policy is applied after the schema, at save time and at every send.
 */
export function httpsUrl(options: FieldOptions): TString {
  const issue = 'must be an https URL';
  return Type.String({
    maxLength: 2048,
    description: options.description,
    ...secrecy(options),
    'x-url': { protocols: ['https:'], loopbackHttp: true, noCredentials: true, issue },
    'x-issues': { type: issue, maxLength: issue },
  });
}

/** An address such as ops@example.com (one recipient, no display name). */
export function emailAddress(description: string): TString {
  const issue = 'must be an email address';
  return Type.String({
    maxLength: 254,
    pattern: '^[^\\s@<>(),;:"]+@[^\\s@<>(),;:"]+\\.[^\\s@<>(),;:"]+$',
    description,
    'x-issues': { type: issue, maxLength: issue, pattern: issue },
  });
}

/** The fields a config schema marks secret (`writeOnly`), in schema order. */
export function secretFieldsOf(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, field]) => (field as TSchema & { writeOnly?: boolean }).writeOnly === true)
    .map(([name]) => name);
}
