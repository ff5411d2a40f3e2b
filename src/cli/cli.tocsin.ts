import type { Tocsin } from '../main.ts';

/**
 * Opens the service against the configured database without HTTP listeners or background roles, for
 * one-off operator commands; always closes it. Errors propagate to cli.main.ts, which prints them.
 */
export async function withTocsin<T>(work: (tocsin: Tocsin) => Promise<T>): Promise<T> {
  // The application is loaded by the command that needs it, not when the CLI starts (see cli.program.ts).
  const [{ createTocsin }, { createLogger }, { configOrExit }] = await Promise.all([
    import('../main.ts'),
    import('../platform/logger.ts'),
    import('./cli.config.ts'),
  ]);
  const tocsin = await createTocsin(configOrExit(), {
    // stdout carries the command's JSON result; log lines (e.g. a generated master key) go to stderr.
    logger: createLogger({ level: 'warn', pretty: false, destination: process.stderr }),
    background: false,
  });
  try {
    return await work(tocsin);
  } finally {
    await tocsin.close();
  }
}
