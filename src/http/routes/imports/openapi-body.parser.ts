import { DomainError, validationFailed } from '../../../platform/errors.ts';
import { parseJsonBody, unsafeInputDetails } from '../../plugins/input-safety.plugin.ts';

/**
 * The body of the OpenAPI parse and import routes, read without decoding `spec` on the main thread. A description
 * sent as an object is megabytes of JSON: decoding it, walking it for unsafe input and copying it to the parse thread
 * held the event loop for most of a second (40,000 paths). Instead one scan finds the top-level fields; the others
 * are decoded and checked as every body is (input-safety.plugin.ts), and `spec` stays text: a JSON string is decoded
 * (one native call), an object or array is kept as its JSON text, which the parse thread reads as it reads any JSON
 * text of a description (so its duplicate keys are refused there too). `specWasObject` says which, so that text which
 * is not JSON is the body's fault (400 invalid_json) rather than the description's.
 * A body that does not scan as an object is left to `parseJsonBody`, whose errors are every route's.
 */
export function readOpenApiBody(text: string): { body: unknown; specWasObject: boolean } {
  const fields = topLevelFields(text);
  const spec = fields?.get('spec');
  if (!fields || !spec) return { body: parseJsonBody(text), specWasObject: false };
  const first = spec.charCodeAt(0);
  const specWasObject = first === 0x7b /* { */ || first === 0x5b; /* [ */
  // Own properties whatever the key (`__proto__` included), so the safety check below sees and refuses it.
  const body = Object.fromEntries(
    [...fields].map(([key, raw]) => [key, key === 'spec' && specWasObject ? raw : decode(raw)]),
  ) as Record<string, unknown>;
  const details = unsafeInputDetails(specWasObject ? { ...body, spec: '' } : body);
  if (details.length > 0) throw validationFailed(details, 'The body is not valid.');
  return { body, specWasObject };
}

function decode(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidJson();
  }
}

function invalidJson(): DomainError {
  return new DomainError('invalid_json', 'The body is not valid JSON.');
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The raw JSON text of each top-level field of an object body (the last of a repeated key, as JSON.parse keeps),
 * or null when the text is not an object of that shape. Values are only delimited here: strings by their quotes,
 * objects and arrays by bracket depth outside strings; JSON.parse or the parse thread checks what is inside.
 */
function topLevelFields(text: string): Map<string, string> | null {
  const fields = new Map<string, string>();
  let i = skip(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return null;
  i = skip(text, i + 1);
  if (text.charCodeAt(i) === 0x7d) return skip(text, i + 1) === text.length ? fields : null;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22) return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return null;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd + 1));
    } catch {
      return null;
    }
    i = skip(text, keyEnd + 1);
    if (text.charCodeAt(i) !== 0x3a /* : */) return null;
    const start = skip(text, i + 1);
    const end = valueEnd(text, start);
    if (end <= start) return null;
    fields.delete(key as string);
    fields.set(key as string, text.slice(start, end));
    i = skip(text, end);
    const c = text.charCodeAt(i);
    if (c === 0x7d) return skip(text, i + 1) === text.length ? fields : null;
    if (c !== 0x2c /* , */) return null;
    i = skip(text, i + 1);
  }
}

function skip(text: string, from: number): number {
  let i = from;
  while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  return i;
}

/** Index of the closing quote of the string that opens at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return -1;
}

/** Index just after the value that starts at `start` (-1 when it does not end). */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === 0x22) {
    const end = stringEnd(text, start);
    return end < 0 ? -1 : end + 1;
  }
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i = stringEnd(text, i);
        if (i < 0) return -1;
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x2c || c === 0x7d || WS.has(c)) break;
    i++;
  }
  return i;
}
