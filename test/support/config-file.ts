import { expect } from 'vitest';
import { ConfigError, loadConfig, type TocsinConfig } from '../../src/config/index.ts';

/** The config Tocsin reads from a `TOCSIN_CONFIG` file with this content (no environment variables). */
export function loadConfigFile(file: unknown): TocsinConfig {
  return loadConfig({
    env: { TOCSIN_CONFIG: '/virtual/tocsin.json' },
    readFile: () => JSON.stringify(file),
    isTty: false,
  });
}

/** The ConfigError such a file gives (fails the test when it loads). */
export function configErrorOf(file: unknown): ConfigError {
  try {
    loadConfigFile(file);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}
