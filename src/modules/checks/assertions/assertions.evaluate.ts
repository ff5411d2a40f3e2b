import { JSONPath } from 'jsonpath-plus';
import type { AssertedResponse, EvaluatedAssertion } from './assertion.types.ts';

const EXCERPT = 200;
const MAX_ACTUAL_JSON = 2000;

function excerpt(s: string): string {
  return s.length > EXCERPT ? `${s.slice(0, EXCERPT)}…` : s;
}

function headerValue(headers: AssertedResponse['headers'], name: string): string | null {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const v = headers[key];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return null;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && deepEqual(ao[k], bo[k]));
}

function safeRegex(pattern: unknown): RegExp | null {
  if (typeof pattern !== 'string') return null;
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

/** Keeps `actual` small enough to store with the execution. */
function boundedActual(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v !== 'object' || v === null) return typeof v === 'string' ? excerpt(v) : v;
  const text = JSON.stringify(v);
  return text.length > MAX_ACTUAL_JSON ? `${text.slice(0, MAX_ACTUAL_JSON)}…` : v;
}

type Result = Omit<EvaluatedAssertion, 'type'>;

function evalStatus(a: Record<string, unknown>, r: AssertedResponse): Result {
  if (Array.isArray(a.in)) return { passed: a.in.includes(r.status), actual: r.status };
  return { passed: r.status === a.equals, actual: r.status };
}

function evalResponseTime(a: Record<string, unknown>, r: AssertedResponse): Result {
  return { passed: typeof a.less_than === 'number' && r.duration_ms < a.less_than, actual: r.duration_ms };
}

function evalHeader(a: Record<string, unknown>, r: AssertedResponse): Result {
  const actual = typeof a.name === 'string' ? headerValue(r.headers, a.name) : null;
  if (actual === null) return { passed: false, actual };
  if (a.equals !== undefined) return { passed: actual === a.equals, actual };
  if (a.contains !== undefined)
    return { passed: typeof a.contains === 'string' && actual.includes(a.contains), actual };
  const re = safeRegex(a.matches);
  return { passed: re !== null && re.test(actual), actual };
}

function evalBody(a: Record<string, unknown>, r: AssertedResponse): Result {
  const body = r.body ?? '';
  if (a.contains !== undefined) {
    const found = typeof a.contains === 'string' && body.includes(a.contains);
    return { passed: found, actual: found };
  }
  if (a.not_contains !== undefined) {
    const found = typeof a.not_contains === 'string' && body.includes(a.not_contains);
    return { passed: !found, actual: found };
  }
  const re = safeRegex(a.matches);
  const m = re ? re.exec(body) : null;
  return { passed: m !== null, actual: m ? excerpt(m[0]) : null };
}

function evalJson(a: Record<string, unknown>, r: AssertedResponse): Result {
  let doc: unknown;
  try {
    doc = JSON.parse(r.body ?? '');
  } catch {
    return { passed: false, actual: null, message: 'response body is not valid JSON' };
  }
  let matches: unknown[];
  try {
    matches = JSONPath({ path: String(a.path), json: doc as object, wrap: true, eval: 'safe' }) as unknown[];
  } catch (err) {
    return { passed: false, actual: null, message: `JSONPath failed: ${(err as Error).message}` };
  }
  if (a.exists !== undefined) return { passed: matches.length > 0 === a.exists, actual: matches.length > 0 };
  const value = matches.length === 0 ? undefined : matches.length === 1 ? matches[0] : matches;
  if (a.equals !== undefined)
    return { passed: value !== undefined && deepEqual(value, a.equals), actual: boundedActual(value) };
  // contains: substring of a string, element of an array, or substring of a scalar's text.
  const expected = a.contains;
  const expectedText = typeof expected === 'string' ? expected : JSON.stringify(expected);
  let passed = false;
  if (typeof value === 'string') passed = value.includes(expectedText);
  else if (Array.isArray(value))
    passed = value.some(
      (x) => deepEqual(x, expected) || (typeof x === 'string' && typeof expected === 'string' && x.includes(expected)),
    );
  else if (value !== undefined && value !== null && typeof value !== 'object')
    passed = JSON.stringify(value).includes(expectedText);
  return { passed, actual: boundedActual(value) };
}

const EVALUATORS: Record<string, (a: Record<string, unknown>, r: AssertedResponse) => Result> = {
  status: evalStatus,
  response_time: evalResponseTime,
  header: evalHeader,
  body: evalBody,
  json: evalJson,
};

/**
 * Evaluates each assertion against a response. Pure and total: an assertion it cannot evaluate
 * (unknown type, invalid pattern) fails rather than throws. Each result is the assertion plus `passed` and `actual`.
 */
export function evaluateAssertions(assertions: readonly object[], response: AssertedResponse): EvaluatedAssertion[] {
  return assertions.map((assertion) => {
    const a = assertion as Record<string, unknown>;
    const type = typeof a.type === 'string' ? a.type : 'unknown';
    const evaluate = EVALUATORS[type];
    const result: Result = evaluate
      ? evaluate(a, response)
      : { passed: false, actual: null, message: 'unknown assertion type' };
    return { ...a, type, ...result } as EvaluatedAssertion;
  });
}
