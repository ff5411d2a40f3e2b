/**
 * The first key that appears twice in one object of a JSON text, with the path of that object, or null.
 * `JSON.parse` keeps the last of duplicate keys silently; a description where `paths` appears twice means two
 * different things to two readers, so it is refused instead. Expects text that `JSON.parse` accepted.
 */
export function firstDuplicateKey(text: string): { path: string; key: string } | null {
  // One frame per open object or array: the keys seen so far (objects), the path, the pending key or index.
  const frames: Array<{ keys: Set<string> | null; path: string; key: string | null; index: number }> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const top = frames[frames.length - 1];
      if (expectKey && top?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { path: top.path || '$', key };
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = frames[frames.length - 1];
      const path = parent ? childPath(parent) : '';
      frames.push({ keys: c === 0x7b ? new Set() : null, path, key: null, index: 0 });
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      frames.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = frames[frames.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return null;
}

function childPath(frame: { keys: Set<string> | null; path: string; key: string | null; index: number }): string {
  const base = frame.path || '$';
  return frame.keys ? `${base}.${frame.key ?? ''}` : `${base}[${frame.index}]`;
}

/** Index of the closing quote of the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i;
  }
  return text.length - 1;
}
