import { readFileSync } from 'node:fs';

/**
 * The package's version, read from package.json. A module of its own so that the CLI can print it (and describe its
 * commands) without loading the application (src/main.ts and every module behind it).
 */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
