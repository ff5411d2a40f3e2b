import { createTocsin, type Tocsin } from '../main.ts';
import { createLogger } from '../platform/logger.ts';
import { configOrExit } from './cli.config.ts';

/**
 * Opens the service against the configured database without HTTP listeners or background roles, for
 * one-off operator commands; always closes it. Errors propagate to cli.main.ts, which prints them.
 */
export async function withTocsin<T>(work: (tocsin: Tocsin) => Promise<T>): Promise<T> {
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
