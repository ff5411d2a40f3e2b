import { ConfigError, loadConfig, type TocsinConfig } from '../config/index.ts';

/** Loads the configuration or exits with a message that names the bad key and what is allowed. */
export function configOrExit(): TocsinConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`tocsin: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}
