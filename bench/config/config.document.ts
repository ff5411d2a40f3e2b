/**
 * The configuration document of the config-as-code benchmark and kill -9 test (issue 33): `monitors` http monitors
 * on a loopback target, each alerting one of `destinations` generic webhooks (a loopback URL with an ${env:…} secret),
 * every fifth depending on the first monitor of its ten, and `pages` status pages of `perPage` monitors each, half of
 * them listed and half in five groups.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface DocumentShape {
  monitors: number;
  destinations: number;
  pages: number;
  perPage: number;
  /** Where monitors and webhooks point: `http://127.0.0.1:PORT`. */
  targetBase: string;
  /** Monitors whose `timeout_ms` differs from the rest (the "10 changed" step). */
  changed?: number;
  interval?: number;
}

export const HOOK_SECRET_VARIABLE = 'BENCH_HOOK_TOKEN';

type Item = Record<string, unknown>;

export function destinationItems(shape: DocumentShape, secret: string): Item[] {
  return Array.from({ length: shape.destinations }, (_, d) => ({
    key: `hook-${d}`,
    type: 'generic_webhook',
    name: `Hook ${d}`,
    config: { url: `${shape.targetBase}/hook/${d}/${secret}` },
  }));
}

export function monitorItems(shape: DocumentShape): Item[] {
  return Array.from({ length: shape.monitors }, (_, i) => ({
    key: `m-${i}`,
    name: `Monitor ${i}`,
    target: `${shape.targetBase}/m/${i}`,
    interval_seconds: shape.interval ?? 60,
    tags: [`team-${i % 7}`],
    config: {
      timeout_ms: i < (shape.changed ?? 0) ? 7000 : 5000,
      alert_destinations: [`hook-${i % shape.destinations}`],
      ...(i % 5 === 4 && { depends_on: [`m-${i - (i % 10)}`] }),
    },
  }));
}

export function statusPageItems(shape: DocumentShape): Item[] {
  return Array.from({ length: shape.pages }, (_, p) => {
    const keys = Array.from({ length: shape.perPage }, (_, j) => `m-${(p * shape.perPage + j) % shape.monitors}`);
    const half = Math.floor(keys.length / 2);
    const groupSize = Math.max(1, Math.ceil((keys.length - half) / 5));
    const groups: Item[] = [];
    for (let g = 0; half + g * groupSize < keys.length; g++)
      groups.push({ name: `Group ${g}`, monitors: keys.slice(half + g * groupSize, half + (g + 1) * groupSize) });
    return {
      key: `page-${p}`,
      slug: `bench-page-${p}`,
      title: `Bench page ${p}`,
      monitors: keys.slice(0, half),
      groups,
    };
  });
}

/** The document as the server receives it: secrets in place, and the fields that hold them (as the CLI sends). */
export function documentBody(shape: DocumentShape, secret: string) {
  const destinations = destinationItems(shape, secret);
  return {
    document: { version: 1, destinations, monitors: monitorItems(shape), status_pages: statusPageItems(shape) },
    prune: false,
    secret_fields: destinations.map((_, d) => `destinations[${d}].config.url`),
  };
}

/** The document as a folder of YAML files for `tocsin config plan|apply DIR`, the secret as `${env:…}`. */
export function writeDocumentFolder(dir: string, shape: DocumentShape): void {
  mkdirSync(dir, { recursive: true });
  const file = (name: string, body: Item) => writeFileSync(join(dir, name), stringify({ version: 1, ...body }));
  file('destinations.yaml', { destinations: destinationItems(shape, `\${env:${HOOK_SECRET_VARIABLE}}`) });
  file('monitors.yaml', { monitors: monitorItems(shape) });
  file('status-pages.yaml', { status_pages: statusPageItems(shape) });
}
