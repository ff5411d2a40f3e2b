import { defineConfig } from 'vitest/config';

/**
 * Files that must run in a module graph of their own: `vi.mock` replaces a module only for what is imported after it,
 * and a worker that already ran another file has the app (and the real module) loaded.
 */
const ISOLATED = ['test/http/openapi.test.ts'];

/**
 * Files whose assertions are about time under failure (a SIGKILLed process's leases taken over within one lease): they
 * run after every other file, alone, so that the CPU they measure is not shared with two other files.
 */
const ALONE = ['test/operations/scale-out.kill.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // TOCSIN_TEST_CPU_LOG=<file>: one line of CPU per test file (docs/BENCHMARKS.md, "Test suite and CI").
    setupFiles: process.env.TOCSIN_TEST_CPU_LOG ? ['test/support/cpu-per-file.ts'] : [],
    // Timeouts catch hangs, not slowness: on the 2-core CI machine shared with other work (load average 17), tests that
    // take a few seconds quiet (a report of 130 monitors, the upgrade steps) took over 20 s.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // expect.poll waits for an outcome (a page drawn, a row written); Vitest's default gives up after 1 s, which a
    // browser page on the loaded 2-core machine took longer than (web-app.imports-intel: "Matcher did not succeed in
    // time" at load 20). A poll passes as soon as its outcome holds, so the longer bound only catches hangs.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // Three files at a time on the 2-core machine: most of a file's time is waiting (PostgreSQL, child processes,
    // Chromium, timers): a fresh-clone run with two used 685 s of CPU in 793 s (43 % of the two cores, 2026-11-29).
    // Every file makes its own databases (random names), Redis key prefix, ports (0) and temporary directories, so
    // files do not share state (docs/architecture.md, Tests).
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...ISOLATED, ...ALONE],
          // A worker keeps its module graph from file to file: the app's modules (src/main.ts and its dependencies,
          // about 2.5 s of CPU) are evaluated once per worker instead of once per file. Safe because no module keeps
          // state (no module-level singletons), Vitest restores spies between files, and the files that fake timers
          // put back the real ones after each case.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      { extends: true, test: { name: 'alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
