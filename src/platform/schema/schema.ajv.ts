import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { urlIssue, type UrlRule } from './schema.url.ts';

export type AjvInstance = Ajv.default;

/**
 * The one JSON Schema validator of the code base: route bodies, destination configs and the configuration file are
 * checked by instances made here, so a keyword (and its issue text) means the same everywhere.
 * `coerce`: query strings and params are coerced ("5" is 5) and get their defaults; bodies and files are not.
 */
export function newAjv(options: { coerce: boolean; allErrors?: boolean; optimize?: boolean }): AjvInstance {
  const ajv = new Ajv.default({
    allErrors: options.allErrors ?? true,
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: options.coerce,
    removeAdditional: false,
    strict: false,
    // A `oneOf` with a `discriminator` (e.g. per-type config) validates only the branch its tag names.
    discriminator: true,
    // Errors carry their schema, so a schema's own `x-issue` text can be reported.
    verbose: true,
    // The generated code's optimisation passes (default on): off where a validator is compiled for one use.
    code: { optimize: options.optimize ?? true },
  });
  addFormats.default(ajv);
  // `x-url` (schema.url.ts): the error carries the rule's own issue text.
  ajv.addKeyword({
    keyword: 'x-url',
    type: 'string',
    schemaType: 'object',
    errors: true,
    compile: (rule: UrlRule) => {
      const check = (data: unknown): boolean => {
        const issue = urlIssue(data, rule);
        check.errors = issue === null ? undefined : [{ keyword: 'x-url', message: issue, params: {} }];
        return issue === null;
      };
      check.errors = undefined as Array<Partial<ErrorObject>> | undefined;
      return check;
    },
  });
  return ajv;
}
