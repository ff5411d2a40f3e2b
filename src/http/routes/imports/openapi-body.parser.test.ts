import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../platform/errors.ts';
import { readOpenApiBody } from './openapi-body.parser.ts';

function refusal(text: string): { code: string; details: unknown } {
  try {
    readOpenApiBody(text);
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.details };
    const e = error as { code?: string; statusCode?: number };
    return { code: `${e.code ?? ''} ${e.statusCode ?? ''}`, details: undefined };
  }
  throw new Error(`accepted: ${text}`);
}

describe('readOpenApiBody', () => {
  it('keeps an object spec as its JSON text and decodes every other field', () => {
    const spec = '{ "openapi": "3.1.0", "x": ["}", "\\"{", {"a": [1, {}]}] }';
    const text = ` {"base_url" : "https://a.example", "spec": ${spec} ,\n "operation_ids": ["a", "b"], "n": -1.5e3, "t": true} `;
    expect(readOpenApiBody(text)).toEqual({
      body: { base_url: 'https://a.example', spec, operation_ids: ['a', 'b'], n: -1500, t: true },
      specWasObject: true,
    });
  });

  it('decodes a text spec, and leaves bodies without spec to the ordinary parser', () => {
    expect(readOpenApiBody('{"spec": "openapi: 3.1.0\\npaths: {}\\n"}')).toEqual({
      body: { spec: 'openapi: 3.1.0\npaths: {}\n' },
      specWasObject: false,
    });
    expect(readOpenApiBody('{"operations": [], "operation_ids": ["a"]}')).toEqual({
      body: { operations: [], operation_ids: ['a'] },
      specWasObject: false,
    });
    expect(readOpenApiBody('{}')).toEqual({ body: {}, specWasObject: false });
    expect(readOpenApiBody('')).toEqual({ body: undefined, specWasObject: false });
  });

  it('keeps the last of a repeated top-level field, as JSON.parse does', () => {
    expect(readOpenApiBody('{"spec": "a", "spec": {"b": 1}}')).toEqual({
      body: { spec: '{"b": 1}' },
      specWasObject: true,
    });
  });

  it('refuses broken JSON (400) and unsafe fields (422) as every body is refused', () => {
    for (const broken of ['{"spec": {"a": 1}', '{"spec": {"a": 1}} x', '{"spec" {"a": 1}}', '{"spec": "a", "n": 01}']) {
      expect(refusal(broken).code).toMatch(/invalid_json|FST_ERR_CTP_INVALID_JSON_BODY 400/);
    }
    expect(refusal('{"spec": {"a": 1}, "__proto__": {"x": 1}}')).toEqual({
      code: 'validation_failed',
      details: [{ field: '__proto__', issue: '__proto__ is not an allowed field name' }],
    });
    expect(refusal('{"spec": "a", "base_url": "https://a\\u0000"}')).toEqual({
      code: 'validation_failed',
      details: [{ field: 'base_url', issue: 'must not contain control characters' }],
    });
    expect(refusal('{"spec": "a\\u0000"}').code).toBe('validation_failed');
  });
});
