import { DDSketch } from '@datadog/sketches-js';

/** Relative accuracy of every stored latency sketch; sketches merge only with equal accuracy. */
export const SKETCH_RELATIVE_ACCURACY = 0.01;
const FORMAT_VERSION = 1;

/**
 * The DDSketch index mapping (logarithmic, α = 1%) of @datadog/sketches-js: `key(v)` gives a value's bin,
 * `value(key)` the bin's representative value, within 1% relative error.
 */
const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;

/**
 * A mergeable latency sketch: DDSketch bins (the library's mapping, above) counted in a dense array of our
 * own, because merging thousands of stored sketches through the library's DenseStore was the cost of
 * 90-day history. Merge = add bin counts (exact, associative). Quantiles follow DDSketch's rule (lower
 * rank). Compact binary encoding (the library's protobuf writes 8-byte doubles per bin):
 *
 *   version (1 byte) · varint zeroCount · varint binCount · binCount × (zigzag-varint keyDelta, varint count)
 *
 * Keys are bin indices (latencies are ≥ 0; values below the mapping's minimum count as zero). An hour of
 * 120 checks whose latencies vary by ±30% takes about 60–70 bytes.
 */
export class LatencySketch {
  private bins: number[] = [];
  private offset = 0;
  private zero = 0;
  private total = 0;

  get count(): number {
    return this.total;
  }

  add(valueMs: number): void {
    if (valueMs > MAPPING.minPossible) this.addKey(MAPPING.key(valueMs), 1);
    else this.zero += 1;
    this.total += 1;
  }

  private addKey(key: number, n: number): void {
    if (this.bins.length === 0) {
      this.offset = key;
      this.bins.push(n);
      return;
    }
    if (key < this.offset) {
      const grow = this.offset - key;
      this.bins = new Array<number>(grow).fill(0).concat(this.bins);
      this.offset = key;
    }
    const i = key - this.offset;
    while (this.bins.length <= i) this.bins.push(0);
    this.bins[i]! += n;
  }

  merge(other: LatencySketch): void {
    for (let i = 0; i < other.bins.length; i++) if (other.bins[i]! > 0) this.addKey(other.offset + i, other.bins[i]!);
    this.zero += other.zero;
    this.total += other.total;
  }

  /**
   * Adds an encoded sketch's counts to this one (no intermediate object); `sign` −1 takes them away instead, which is
   * exact when they are part of this sketch (a UTC day's rollup less one of its hours: bin counts are integers).
   */
  mergeEncoded(encoded: Uint8Array | string | null | undefined, sign: 1 | -1 = 1): void {
    if (!encoded || encoded.length === 0) return;
    // Hexadecimal text (as reports read sketches: no Buffer per row) is read two digits a byte.
    let reader: { at: (i: number) => number; length: number; pos: number };
    if (typeof encoded === 'string') {
      if (encoded.length % 2 !== 0) throw new Error('latency sketch: odd hexadecimal length');
      const at = (i: number) => hexDigit(encoded.charCodeAt(2 * i)) * 16 + hexDigit(encoded.charCodeAt(2 * i + 1));
      reader = { at, length: encoded.length / 2, pos: 1 };
    } else {
      reader = { at: (i: number) => encoded[i]!, length: encoded.length, pos: 1 };
    }
    const version = reader.at(0);
    if (version !== FORMAT_VERSION) throw new Error(`unknown latency sketch format ${version}`);
    const zero = readVarint(reader);
    const n = readVarint(reader);
    let key = 0;
    let added = zero;
    for (let i = 0; i < n; i++) {
      key += unzigzag(readVarint(reader));
      const count = readVarint(reader);
      this.addKey(key, sign * count);
      added += count;
    }
    this.zero += sign * zero;
    this.total += sign * added;
  }

  /** The mean of the values as the bins represent them (each within the sketch's relative accuracy); null when empty. */
  mean(): number | null {
    if (this.total === 0) return null;
    let sum = 0;
    for (let i = 0; i < this.bins.length; i++)
      if (this.bins[i]! > 0) sum += this.bins[i]! * MAPPING.value(this.offset + i);
    return sum / this.total;
  }

  /** The value at quantile q (0..1), null when empty; DDSketch's definition (rank q·(n−1), lower bin). */
  quantile(q: number): number | null {
    if (this.total === 0) return null;
    const rank = q * (this.total - 1);
    if (rank < this.zero) return 0;
    let cumulative = this.zero;
    for (let i = 0; i < this.bins.length; i++) {
      cumulative += this.bins[i]!;
      if (cumulative > rank) return MAPPING.value(this.offset + i);
    }
    return MAPPING.value(this.offset + this.bins.length - 1);
  }

  /**
   * `quantile(q)` for each of `qs` (ascending) in one pass over the bins: a report asks three per monitor and day.
   */
  quantiles(qs: readonly number[]): Array<number | null> {
    if (this.total === 0) return qs.map(() => null);
    const out: Array<number | null> = [];
    let cumulative = this.zero;
    let i = -1;
    for (const q of qs) {
      const rank = q * (this.total - 1);
      if (rank < this.zero) {
        out.push(0);
        continue;
      }
      while (cumulative <= rank && i < this.bins.length - 1) cumulative += this.bins[++i]!;
      out.push(MAPPING.value(this.offset + i));
    }
    return out;
  }

  encode(): Uint8Array {
    const out: number[] = [FORMAT_VERSION];
    writeVarint(out, this.zero);
    const pairs: number[] = [];
    let n = 0;
    let prev = 0;
    for (let i = 0; i < this.bins.length; i++) {
      const c = this.bins[i]!;
      if (c <= 0) continue;
      const key = i + this.offset;
      pairs.push(zigzag(key - prev), c);
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

/** The value of one hexadecimal digit (character code), either case. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  throw new Error('latency sketch: not hexadecimal');
}

function readVarint(r: { at: (i: number) => number; length: number; pos: number }): number {
  let result = 0;
  let scale = 1;
  for (;;) {
    if (r.pos >= r.length) throw new Error('truncated latency sketch');
    const b = r.at(r.pos++);
    result += (b & 0x7f) * scale;
    if (b < 0x80) return result;
    scale *= 0x80;
  }
}
