import { readFileSync } from 'node:fs';

/**
 * The V8 flags the service runs with, read from bin/tocsin.js's first line (`#!/usr/bin/env -S node <flags>`, which
 * `npm start` repeats): benches start `tocsin serve` exactly as users run it.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = readFileSync(
  new URL('../../bin/tocsin.js', import.meta.url),
  'utf8',
)
  .split('\n', 1)[0]!
  .replace(/^#!\/usr\/bin\/env -S node/, '')
  .split(' ')
  .filter(Boolean);
