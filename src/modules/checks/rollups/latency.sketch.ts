import { DDSketch } from '@datadog/sketches-js';

/** Relative accuracy of every stored latency sketch; sketches merge only with equal accuracy. */
export const SKETCH_RELATIVE_ACCURACY = 0.01;
const FORMAT_VERSION = 1;

/**
 * A mergeable latency sketch (DDSketch, α = 1%, logarithmic mapping from @datadog/sketches-js) with a
 * compact binary encoding of our own instead of the library's protobuf (which writes 8-byte doubles per bin):
 *
 *   version (1 byte) · varint zeroCount · varint binCount · binCount × (zigzag-varint keyDelta, varint count)
 *
 * Keys are the sketch's bin indices (positive values only: latencies are ≥ 0); an hour of checks whose
 * latencies vary by ±30% around one value takes about 60 bins, i.e. ~100–150 bytes.
 */
export class LatencySketch {
  readonly sketch: DDSketch;
  constructor() {
    this.sketch = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY });
  }

  get count(): number {
    return this.sketch.count;
  }

  add(valueMs: number): void {
    this.sketch.accept(Math.max(0, valueMs));
  }

  merge(other: LatencySketch): void {
    if (other.count > 0) this.sketch.merge(other.sketch);
  }

  /** Adds an encoded sketch's counts to this one (no intermediate object). */
  mergeEncoded(bytes: Uint8Array | null | undefined): void {
    if (!bytes || bytes.length === 0) return;
    if (bytes[0] !== FORMAT_VERSION) throw new Error(`unknown latency sketch format ${bytes[0]}`);
    const reader = { bytes, pos: 1 };
    const zero = readVarint(reader);
    const bins = readVarint(reader);
    const store = this.sketch.store;
    let key = 0;
    let added = zero;
    for (let i = 0; i < bins; i++) {
      key += unzigzag(readVarint(reader));
      const count = readVarint(reader);
      store.add(key, count);
      added += count;
    }
    this.sketch.zeroCount += zero;
    this.sketch.count += added;
  }

  /** The value at quantile q (0..1), null when empty. */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    return this.sketch.getValueAtQuantile(q);
  }

  encode(): Uint8Array {
    const out: number[] = [FORMAT_VERSION];
    const { store, zeroCount } = this.sketch;
    writeVarint(out, Math.round(zeroCount));
    const pairs: number[] = [];
    let n = 0;
    let prev = 0;
    for (let i = 0; i < store.bins.length; i++) {
      const c = store.bins[i]!;
      if (c <= 0) continue;
      const key = i + store.offset;
      pairs.push(zigzag(key - prev), Math.round(c));
      prev = key;
      n++;
    }
    writeVarint(out, n);
    for (const v of pairs) writeVarint(out, v);
    return Uint8Array.from(out);
  }

  static decode(bytes: Uint8Array | null | undefined): LatencySketch {
    const s = new LatencySketch();
    s.mergeEncoded(bytes);
    return s;
  }
}

function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

function unzigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(r: { bytes: Uint8Array; pos: number }): number {
  let result = 0;
  let scale = 1;
  for (;;) {
    if (r.pos >= r.bytes.length) throw new Error('truncated latency sketch');
    const b = r.bytes[r.pos++]!;
    result += (b & 0x7f) * scale;
    if (b < 0x80) return result;
    scale *= 0x80;
  }
}
