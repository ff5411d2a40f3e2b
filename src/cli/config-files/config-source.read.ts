import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ConfigSource {
  /** As the user wrote it (a file), or relative to the folder given: what messages name. */
  name: string;
  text: string;
}

const DOCUMENT_FILE = /\.(ya?ml|json)$/i;
/** More than any real setup needs; a larger file is a mistake (or an attack) better refused than parsed. */
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;

export class SourceReadError extends Error {}

/** A file, or every `*.yaml`, `*.yml` and `*.json` under a folder (sorted by path, hidden entries skipped). */
export function readConfigSources(path: string): ConfigSource[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new SourceReadError(`${path}: no such file or folder`);
  }
  if (!stat.isDirectory()) return [readSource(path, path)];
  const files = walk(path).sort();
  if (files.length === 0) throw new SourceReadError(`${path}: the folder holds no .yaml, .yml or .json file`);
  return files.map((file) => readSource(file, file));
}

function walk(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...walk(path));
    else if (entry.isFile() && DOCUMENT_FILE.test(entry.name)) found.push(path);
  }
  return found;
}

function readSource(path: string, name: string): ConfigSource {
  const size = statSync(path).size;
  if (size > MAX_SOURCE_BYTES) throw new SourceReadError(`${name}: larger than ${MAX_SOURCE_BYTES} bytes`);
  return { name, text: readFileSync(path, 'utf8') };
}
