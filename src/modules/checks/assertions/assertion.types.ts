/** HTTP response assertions (DECISIONS §4). Exactly one operator per assertion. */

export type StatusAssertion = { type: 'status'; equals: number } | { type: 'status'; in: number[] };
export interface ResponseTimeAssertion {
  type: 'response_time';
  less_than: number;
}
export type HeaderAssertion =
  | { type: 'header'; name: string; equals: string }
  | { type: 'header'; name: string; contains: string }
  | { type: 'header'; name: string; matches: string };
export type BodyAssertion =
  { type: 'body'; contains: string } | { type: 'body'; not_contains: string } | { type: 'body'; matches: string };
export type JsonAssertion =
  | { type: 'json'; path: string; equals: unknown }
  | { type: 'json'; path: string; contains: unknown }
  | { type: 'json'; path: string; exists: boolean };

export type Assertion = StatusAssertion | ResponseTimeAssertion | HeaderAssertion | BodyAssertion | JsonAssertion;
export type AssertionType = Assertion['type'];

/** What the evaluator looks at. Header names are matched case-insensitively. */
export interface AssertedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as read (possibly capped); undefined when it was not read. */
  body: string | undefined;
  duration_ms: number;
}

export interface EvaluatedAssertion {
  type: string;
  passed: boolean;
  actual: unknown;
  [field: string]: unknown;
}

/** Shape of a validation problem, as in the API error envelope `details`. */
export interface AssertionIssue {
  field: string;
  issue: string;
}
