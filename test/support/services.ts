/**
 * Which external services the test run uses. PostgreSQL and Redis suites run when their URL is set and
 * are required (fail, never skip) when TOCSIN_TEST_REQUIRE_SERVICES=1, as in `.ci/run`.
 */
export const testServices = {
  postgresUrl: process.env.TOCSIN_TEST_POSTGRES_URL ?? null,
  redisUrl: process.env.TOCSIN_TEST_REDIS_URL ?? null,
  required: process.env.TOCSIN_TEST_REQUIRE_SERVICES === '1',
};
