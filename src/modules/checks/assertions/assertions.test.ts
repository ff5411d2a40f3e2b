import { describe, expect, it } from 'vitest';
import { assertionNeedsBody, evaluateAssertions, validateAssertion, validateAssertions } from './index.ts';
import type { AssertedResponse } from './index.ts';

const response: AssertedResponse = {
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'set-cookie': ['a=1', 'b=2'], 'x-empty': '' },
  body: JSON.stringify({
    status: 'ok',
    version: 3,
    tags: ['a', 'b'],
    nested: { items: [{ id: 1 }, { id: 2 }] },
    none: null,
  }),
  duration_ms: 120,
};

describe('evaluateAssertions', () => {
  const cases: Array<[string, object, boolean, unknown]> = [
    ['status equals pass', { type: 'status', equals: 200 }, true, 200],
    ['status equals fail', { type: 'status', equals: 201 }, false, 200],
    ['status in pass', { type: 'status', in: [204, 200] }, true, 200],
    ['status in fail', { type: 'status', in: [500] }, false, 200],
    ['response_time pass', { type: 'response_time', less_than: 121 }, true, 120],
    ['response_time boundary fails', { type: 'response_time', less_than: 120 }, false, 120],
    [
      'header equals, case-insensitive name',
      { type: 'header', name: 'Content-Type', equals: 'application/json; charset=utf-8' },
      true,
      'application/json; charset=utf-8',
    ],
    [
      'header contains',
      { type: 'header', name: 'content-type', contains: 'json' },
      true,
      'application/json; charset=utf-8',
    ],
    [
      'header matches',
      { type: 'header', name: 'CONTENT-TYPE', matches: '^application/(json|xml)' },
      true,
      'application/json; charset=utf-8',
    ],
    [
      'header matches fail',
      { type: 'header', name: 'content-type', matches: '^text/' },
      false,
      'application/json; charset=utf-8',
    ],
    ['header multi-valued joined', { type: 'header', name: 'set-cookie', contains: 'b=2' }, true, 'a=1, b=2'],
    ['header missing', { type: 'header', name: 'x-missing', equals: '' }, false, null],
    ['header empty value equals empty', { type: 'header', name: 'x-empty', equals: '' }, true, ''],
    ['body contains', { type: 'body', contains: '"status":"ok"' }, true, true],
    ['body contains fail', { type: 'body', contains: 'nope' }, false, false],
    ['body not_contains pass', { type: 'body', not_contains: 'error' }, true, false],
    ['body not_contains fail', { type: 'body', not_contains: 'ok' }, false, true],
    ['body matches', { type: 'body', matches: '"version":\\d+' }, true, '"version":3'],
    ['body matches fail', { type: 'body', matches: 'version":9' }, false, null],
    ['json equals scalar', { type: 'json', path: '$.status', equals: 'ok' }, true, 'ok'],
    ['json equals number', { type: 'json', path: '$.version', equals: 3 }, true, 3],
    ['json equals type-strict', { type: 'json', path: '$.version', equals: '3' }, false, 3],
    ['json equals null', { type: 'json', path: '$.none', equals: null }, true, null],
    ['json equals object', { type: 'json', path: '$.nested.items[0]', equals: { id: 1 } }, true, { id: 1 }],
    ['json equals wildcard array', { type: 'json', path: '$.nested.items[*].id', equals: [1, 2] }, true, [1, 2]],
    ['json contains array element', { type: 'json', path: '$.tags', contains: 'b' }, true, ['a', 'b']],
    ['json contains substring', { type: 'json', path: '$.status', contains: 'o' }, true, 'ok'],
    ['json contains fail', { type: 'json', path: '$.tags', contains: 'z' }, false, ['a', 'b']],
    ['json exists true', { type: 'json', path: '$.nested.items', exists: true }, true, true],
    ['json exists false', { type: 'json', path: '$.missing', exists: false }, true, false],
    ['json exists fails', { type: 'json', path: '$.missing', exists: true }, false, false],
    ['json missing equals', { type: 'json', path: '$.missing', equals: null }, false, null],
    ['json filter', { type: 'json', path: '$.nested.items[?(@.id > 1)].id', equals: 2 }, true, 2],
  ];
  it.each(cases)('%s', (_name, assertion, passed, actual) => {
    const [result] = evaluateAssertions([assertion], response);
    expect(result).toMatchObject({ ...assertion, passed, actual });
  });

  it('fails json assertions on a non-JSON body, and body assertions on an unread body', () => {
    const r = { ...response, body: '<html>' };
    expect(evaluateAssertions([{ type: 'json', path: '$.a', exists: true }], r)[0]).toMatchObject({
      passed: false,
      actual: null,
      message: 'response body is not valid JSON',
    });
    expect(evaluateAssertions([{ type: 'body', contains: 'x' }], { ...response, body: undefined })[0].passed).toBe(
      false,
    );
  });

  it('never throws on bad input', () => {
    const results = evaluateAssertions(
      [{ type: 'weird' }, { type: 'body', matches: '(' }, { type: 'header', matches: 'x' }],
      response,
    );
    expect(results.map((r) => r.passed)).toEqual([false, false, false]);
  });

  it('bounds large actual values', () => {
    const big = {
      ...response,
      body: JSON.stringify({ s: 'x'.repeat(5000), arr: Array.from({ length: 2000 }, (_, i) => i) }),
    };
    const [s, arr] = evaluateAssertions(
      [
        { type: 'json', path: '$.s', equals: 'y' },
        { type: 'json', path: '$.arr', equals: [] },
      ],
      big,
    );
    expect(String(s.actual).length).toBeLessThanOrEqual(201);
    expect(typeof arr.actual).toBe('string');
  });
});

describe('validateAssertion', () => {
  const P = 'config.assertions[0]';
  const valid: object[] = [
    { type: 'status', equals: 200 },
    { type: 'status', in: [200, 204] },
    { type: 'response_time', less_than: 500 },
    { type: 'header', name: 'Content-Type', equals: 'text/html' },
    { type: 'header', name: 'x-a', contains: 'v' },
    { type: 'header', name: 'x-a', matches: '^v\\d+$' },
    { type: 'body', contains: 'ok' },
    { type: 'body', not_contains: 'error' },
    { type: 'body', matches: 'up|ok' },
    { type: 'json', path: '$.status', equals: 'ok' },
    { type: 'json', path: '$.data[0].id', equals: null },
    { type: 'json', path: "$['weird key']", exists: true },
    { type: 'json', path: '$.items[?(@.id > 1)]', contains: { id: 2 } },
    { type: 'json', path: '$..id', exists: false },
  ];
  it.each(valid)('accepts %j', (a) => {
    expect(validateAssertion(a, P)).toEqual([]);
  });

  const invalid: Array<[unknown, Array<{ field: string; issue: string | RegExp }>]> = [
    ['x', [{ field: P, issue: 'must be an object' }]],
    [{}, [{ field: `${P}.type`, issue: 'is required' }]],
    [{ type: 'nope' }, [{ field: `${P}.type`, issue: /must be one of/ }]],
    [{ type: 'status' }, [{ field: P, issue: /needs exactly one of equals, in/ }]],
    [{ type: 'status', equals: 200, in: [200] }, [{ field: `${P}.in`, issue: /only one of/ }]],
    [{ type: 'status', equals: '200' }, [{ field: `${P}.equals`, issue: /integer HTTP status/ }]],
    [{ type: 'status', equals: 99 }, [{ field: `${P}.equals`, issue: /integer HTTP status/ }]],
    [{ type: 'status', in: [] }, [{ field: `${P}.in`, issue: /non-empty array/ }]],
    [{ type: 'status', in: [200, 'x'] }, [{ field: `${P}.in[1]`, issue: /integer HTTP status/ }]],
    [
      { type: 'status', equals: 200, extra: 1 },
      [{ field: `${P}.extra`, issue: 'is not allowed for a status assertion' }],
    ],
    [{ type: 'response_time', less_than: -1 }, [{ field: `${P}.less_than`, issue: /positive number/ }]],
    [{ type: 'response_time', less_than: '5' }, [{ field: `${P}.less_than`, issue: /positive number/ }]],
    [{ type: 'header', equals: 'x' }, [{ field: `${P}.name`, issue: 'is required' }]],
    [{ type: 'header', name: 'bad name', equals: 'x' }, [{ field: `${P}.name`, issue: /header name/ }]],
    [{ type: 'header', name: 'x', equals: 1 }, [{ field: `${P}.equals`, issue: 'must be a string' }]],
    [{ type: 'header', name: 'x', matches: '(' }, [{ field: `${P}.matches`, issue: /valid regular expression/ }]],
    [
      { type: 'header', name: 'x', not_contains: 'y' },
      [
        { field: `${P}.not_contains`, issue: /not allowed/ },
        { field: P, issue: /needs exactly one/ },
      ],
    ],
    [{ type: 'body', contains: '' }, [{ field: `${P}.contains`, issue: 'must not be empty' }]],
    [{ type: 'body', matches: '[a-' }, [{ field: `${P}.matches`, issue: /valid regular expression/ }]],
    [{ type: 'body', contains: 'a', matches: 'b' }, [{ field: `${P}.matches`, issue: /only one of/ }]],
    [{ type: 'body', path: '$.a', contains: 'a' }, [{ field: `${P}.path`, issue: /not allowed/ }]],
    [{ type: 'json', equals: 1 }, [{ field: `${P}.path`, issue: 'is required' }]],
    [{ type: 'json', path: 'status', equals: 1 }, [{ field: `${P}.path`, issue: /starting with \$/ }]],
    [{ type: 'json', path: '$.a[0', equals: 1 }, [{ field: `${P}.path`, issue: /unbalanced/ }]],
    [{ type: 'json', path: '$.a]', equals: 1 }, [{ field: `${P}.path`, issue: /unbalanced/ }]],
    [{ type: 'json', path: "$['a]", equals: 1 }, [{ field: `${P}.path`, issue: /unbalanced/ }]],
    [{ type: 'json', path: '$.a.', equals: 1 }, [{ field: `${P}.path`, issue: /valid JSONPath/ }]],
    [{ type: 'json', path: '$.a[?(@.x ==)]', equals: 1 }, [{ field: `${P}.path`, issue: /valid JSONPath/ }]],
    [{ type: 'json', path: '$.a', exists: 'yes' }, [{ field: `${P}.exists`, issue: 'must be a boolean' }]],
    [{ type: 'json', path: 5, exists: true }, [{ field: `${P}.path`, issue: 'must be a string' }]],
  ];
  it.each(invalid)('rejects %j', (a, expected) => {
    const issues = validateAssertion(a, P);
    expect(issues).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      expect(issues[i].field).toBe(e.field);
      if (typeof e.issue === 'string') expect(issues[i].issue).toBe(e.issue);
      else expect(issues[i].issue).toMatch(e.issue);
    });
  });

  it('validates a list with indexed prefixes', () => {
    expect(validateAssertions('x', 'config.assertions')).toEqual([
      { field: 'config.assertions', issue: 'must be an array' },
    ]);
    expect(
      validateAssertions(
        [
          { type: 'status', equals: 200 },
          { type: 'status', equals: 'x' },
        ],
        'config.assertions',
      ),
    ).toEqual([{ field: 'config.assertions[1].equals', issue: 'must be an integer HTTP status (100-599)' }]);
  });
});

describe('assertionNeedsBody', () => {
  it.each([
    ['status', false],
    ['response_time', false],
    ['header', false],
    ['body', true],
    ['json', true],
  ])('%s → %s', (type, needs) => {
    expect(assertionNeedsBody({ type })).toBe(needs);
  });
});
