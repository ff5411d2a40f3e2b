import { existsSync } from 'node:fs';

/**
 * Which external services the test run uses. PostgreSQL and Redis suites run when their URL is set and
 * are required (fail, never skip) when TOCSIN_TEST_REQUIRE_SERVICES=1, as in `.ci/run`; so is Chromium for the
 * browser suite.
 */
export const testServices = {
  postgresUrl: process.env.TOCSIN_TEST_POSTGRES_URL ?? null,
  redisUrl: process.env.TOCSIN_TEST_REDIS_URL ?? null,
  /** Debian's Chromium (or TOCSIN_TEST_CHROMIUM) for the browser suite; required with the services. */
  chromiumPath: process.env.TOCSIN_TEST_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null),
  required: process.env.TOCSIN_TEST_REQUIRE_SERVICES === '1',
};
