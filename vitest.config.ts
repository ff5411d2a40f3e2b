import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Timeouts catch hangs, not slowness: on the 2-core CI machine shared with other work (load average 17), tests that
    // take a few seconds quiet (a report of 130 monitors, the upgrade steps) took over 20 s.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
  },
});
