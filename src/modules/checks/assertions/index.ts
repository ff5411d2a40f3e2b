export type {
  Assertion,
  AssertionType,
  AssertedResponse,
  EvaluatedAssertion,
  AssertionIssue,
  StatusAssertion,
  ResponseTimeAssertion,
  HeaderAssertion,
  BodyAssertion,
  JsonAssertion,
} from './assertion.types.ts';
export { evaluateAssertions } from './assertions.evaluate.ts';
export {
  validateAssertion,
  validateAssertions,
  assertionNeedsBody,
  regexIssue,
  jsonPathIssue,
  ASSERTION_TYPES,
} from './assertion.validation.ts';
