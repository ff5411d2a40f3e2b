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
 * Encoded sketches of many rows decoded once, their bins stored flat (keys and counts of row i at [first(i), end(i))):
 * a report reads hundreds of thousands of stored sketches, and decoding each into arrays of its own, then merging
 * object to object, was most of its cost after the database. A row that adds to several sketches (an edge hour of two
 * local days) is decoded once, and each target sketch can be made with room for every key it will receive.
 */
export class DecodedSketches {
  // Small at first (a result batch decodes one sketch at a time); read() doubles them as rows need.
  private keys = new Float64Array(64);
  private counts = new Float64Array(64);
  private bins = 0;
  /**
   * Per row: index of its first bin, zero count, total, lowest and highest key. `rows` of each are in use: clear()
   * keeps the arrays (truncating one frees its storage, and a rollup write decodes row after row with one decoder).
   */
  private rows = 0;
  private starts: number[] = [];
  private zeros: number[] = [];
  private totals: number[] = [];
  private lows: number[] = [];
  private highs: number[] = [];
  private bytes = Buffer.alloc(64);
  private frames = Buffer.alloc(256);
  /** The bytes being read, their length and the read position (fields, not a closure: no allocation per row). */
  private src: Uint8Array = this.bytes;
  private end = 0;
  private pos = 0;

  /** Rows read. */
  get size(): number {
    return this.rows;
  }

  clear(): void {
    this.bins = 0;
    this.rows = 0;
  }

  /**
   * Reads one encoded sketch (bytes, or hexadecimal text of either case: reports read text, no Buffer per row) and
   * returns its row index, or −1 when there is none ('' or null). Throws on a malformed one (nothing is added then).
   */
  push(encoded: Uint8Array | string | null | undefined): number {
    if (!encoded || encoded.length === 0) return -1;
    if (typeof encoded !== 'string') return this.read(encoded, 0, encoded.length);
    return this.read(this.hex(encoded, 'bytes'), 0, encoded.length / 2);
  }

  /**
   * Reads the sketches of hexadecimal text that holds several, each preceded by its length in bytes (4 bytes,
   * big-endian; 0: none): an hour block's sketches as reports read them, decoded in one call, without a string per
   * sketch. Returns how many rows it added (the last `count` rows; none for '' or null). Throws on malformed text.
   */
  pushFramed(text: string | null | undefined): number {
    if (!text) return 0;
    const bytes = this.hex(text, 'frames');
    const end = text.length / 2;
    const first = this.size;
    for (let at = 0; at < end;) {
      if (at + 4 > end) throw new Error('truncated latency sketch frame');
      const length = bytes.readUInt32BE(at);
      at += 4;
      if (at + length > end) throw new Error('truncated latency sketch frame');
      if (length > 0) this.read(bytes, at, at + length);
      at += length;
    }
    return this.size - first;
  }

  /** The bytes of hexadecimal text, in one of two buffers kept for it (a frame's sketches are read from `frames`). */
  private hex(text: string, into: 'bytes' | 'frames'): Buffer {
    if (text.length % 2 !== 0) throw new Error('latency sketch: odd hexadecimal length');
    const length = text.length / 2;
    if (this[into].length < length) this[into] = Buffer.alloc(2 * length);
    // Node's native hex decoder (a JS loop over character codes was 40 % slower: a New York report decodes 540,000
    // sketches); it stops at the first pair that is not hexadecimal, so fewer bytes written means bad text.
    if (this[into].write(text, 0, length, 'hex') !== length) throw new Error('latency sketch: not hexadecimal');
    return this[into];
  }

  /** Decodes the sketch in bytes [from, to) of `bytes` as the next row. */
  private read(bytes: Uint8Array, from: number, to: number): number {
    const version = bytes[from]!;
    if (version !== FORMAT_VERSION) throw new Error(`unknown latency sketch format ${version}`);
    this.src = bytes;
    this.end = to;
    this.pos = from + 1;
    const zero = this.varint();
    const n = this.varint();
    // Each bin takes two bytes at least: a count beyond that is a truncated (or corrupt) sketch, not an allocation.
    if (n > (to - this.pos) / 2) throw new Error('truncated latency sketch');
    if (this.keys.length < this.bins + n) {
      const keys = new Float64Array(2 * (this.bins + n));
      const counts = new Float64Array(2 * (this.bins + n));
      keys.set(this.keys.subarray(0, this.bins));
      counts.set(this.counts.subarray(0, this.bins));
      this.keys = keys;
      this.counts = counts;
    }
    const first = this.bins;
    let key = 0;
    let total = zero;
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < n; i++) {
      key += unzigzag(this.varint());
      const count = this.varint();
      this.keys[first + i] = key;
      this.counts[first + i] = count;
      total += count;
      if (key < low) low = key;
      if (key > high) high = key;
    }
    this.bins = first + n;
    const row = this.rows++;
    this.starts[row] = first;
    this.zeros[row] = zero;
    this.totals[row] = total;
    this.lows[row] = low;
    this.highs[row] = high;
    return row;
  }

  /** Lowest and highest bin key of row `row` (Infinity / −Infinity when it has only zeros). */
  lowKey(row: number): number {
    return this.lows[row]!;
  }

  highKey(row: number): number {
    return this.highs[row]!;
  }

  /** Bin range of row `row` in keyAt / countAt: [firstBin(row), endBin(row)). */
  firstBin(row: number): number {
    return this.starts[row]!;
  }

  endBin(row: number): number {
    return row + 1 < this.rows ? this.starts[row + 1]! : this.bins;
  }

  keyAt(bin: number): number {
    return this.keys[bin]!;
  }

  countAt(bin: number): number {
    return this.counts[bin]!;
  }

  zeroOf(row: number): number {
    return this.zeros[row]!;
  }

  totalOf(row: number): number {
    return this.totals[row]!;
  }

  private varint(): number {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.end) throw new Error('truncated latency sketch');
      const b = this.src[this.pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
    }
  }
}

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
 *
 * The bins are the keys [offset, offset + length) — from the lowest to the highest key ever added, counts of zero
 * (or below, while a part is being taken away) included, as quantile() reads them — held in an array with room
 * on both sides (`base` is the key of its first slot), so adding a key seldom allocates.
 */
export class LatencySketch {
  private buf: number[] = [];
  private base = 0;
  private offset = 0;
  private length = 0;
  private zero = 0;
  private total = 0;
  /** mergeEncoded's decoder, made on first use and kept: callers merge row after row into one sketch. */
  private decoder: DecodedSketches | undefined;
  /** encode's output buffer, kept and grown (copied out at each encode's length). */
  private encoded = new Uint8Array(0);

  /**
   * Makes room for the keys [low, high] (none when high < low) at once: a sketch filled from decoded rows whose key
   * range is known then never grows key by key. Changes no count.
   */
  reserve(low: number, high: number): void {
    if (high < low) return;
    if (low < this.base || low >= this.base + this.buf.length) this.grow(low);
    if (high >= this.base + this.buf.length) this.grow(high);
  }

  /** Empties the sketch and keeps its room: one sketch reused for many (each summed up, then cleared). */
  clear(): void {
    const from = this.offset - this.base;
    for (let i = from; i < from + this.length; i++) this.buf[i] = 0;
    this.offset = 0;
    this.length = 0;
    this.zero = 0;
    this.total = 0;
  }

  get count(): number {
    return this.total;
  }

  add(valueMs: number): void {
    if (valueMs > MAPPING.minPossible) this.addKey(MAPPING.key(valueMs), 1);
    else this.zero += 1;
    this.total += 1;
  }

  private addKey(key: number, n: number): void {
    if (key < this.base || key >= this.base + this.buf.length) this.grow(key);
    this.buf[key - this.base]! += n;
    if (this.length === 0) {
      this.offset = key;
      this.length = 1;
    } else if (key < this.offset) {
      this.length += this.offset - key;
      this.offset = key;
    } else if (key >= this.offset + this.length) {
      this.length = key - this.offset + 1;
    }
  }

  /** Makes room for `key`, twice the span needed, the spare room on the side it grows to. */
  private grow(key: number): void {
    if (this.buf.length === 0) {
      this.buf = new Array<number>(16).fill(0);
      this.base = key - 4;
      return;
    }
    const from = Math.min(this.base, key);
    const to = Math.max(this.base + this.buf.length, key + 1);
    const span = to - from;
    const base = key < this.base ? from - span : from;
    const next = new Array<number>(2 * span).fill(0);
    const at = this.base - base;
    for (let i = 0; i < this.buf.length; i++) next[at + i] = this.buf[i]!;
    this.buf = next;
    this.base = base;
  }

  /** The count of bin `i` (0 = the lowest key, `offset`). */
  private bin(i: number): number {
    return this.buf[this.offset - this.base + i]!;
  }

  merge(other: LatencySketch): void {
    // Only the other's positive bins are added (as key by key): find their range, make room once, add in one loop.
    const from = other.offset - other.base;
    let first = -1;
    let last = -1;
    for (let i = 0; i < other.length; i++) {
      if (other.buf[from + i]! > 0) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first >= 0) {
      this.addKey(other.offset + first, other.buf[from + first]!);
      if (last > first) this.addKey(other.offset + last, other.buf[from + last]!);
      const shift = other.base - this.base;
      for (let i = from + first + 1; i < from + last; i++) {
        const c = other.buf[i]!;
        if (c > 0) this.buf[shift + i]! += c;
      }
    }
    this.zero += other.zero;
    this.total += other.total;
  }

  /**
   * Adds an encoded sketch's counts to this one (no intermediate object); `sign` −1 takes them away instead, which is
   * exact when they are part of this sketch (a UTC day's rollup less one of its hours: bin counts are integers).
   */
  mergeEncoded(encoded: Uint8Array | string | null | undefined, sign: 1 | -1 = 1): void {
    const decoder = (this.decoder ??= new DecodedSketches());
    decoder.clear();
    const row = decoder.push(encoded);
    if (row >= 0) this.mergeDecoded(decoder, row, sign);
  }

  /** Adds (`sign` 1) or takes away (−1) row `row` of `decoded`: mergeEncoded without decoding again. */
  mergeDecoded(decoded: DecodedSketches, row: number, sign: 1 | -1 = 1): void {
    const end = decoded.endBin(row);
    for (let i = decoded.firstBin(row); i < end; i++) this.addKey(decoded.keyAt(i), sign * decoded.countAt(i));
    this.zero += sign * decoded.zeroOf(row);
    this.total += sign * decoded.totalOf(row);
  }

  /** The mean of the values as the bins represent them (each within the sketch's relative accuracy); null when empty. */
  mean(): number | null {
    if (this.total === 0) return null;
    let sum = 0;
    for (let i = 0; i < this.length; i++) {
      const c = this.bin(i);
      if (c > 0) sum += c * MAPPING.value(this.offset + i);
    }
    return sum / this.total;
  }

  /** The value at quantile q (0..1), null when empty; DDSketch's definition (rank q·(n−1), lower bin). */
  quantile(q: number): number | null {
    if (this.total === 0) return null;
    const rank = q * (this.total - 1);
    if (rank < this.zero) return 0;
    let cumulative = this.zero;
    for (let i = 0; i < this.length; i++) {
      cumulative += this.bin(i);
      if (cumulative > rank) return MAPPING.value(this.offset + i);
    }
    return MAPPING.value(this.offset + this.length - 1);
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
      while (cumulative <= rank && i < this.length - 1) cumulative += this.bin(++i);
      out.push(MAPPING.value(this.offset + i));
    }
    return out;
  }

  /**
   * The stored form: version, zero count, bin count, then (key delta zigzagged, count) varints. Written into a byte
   * buffer the sketch keeps (one sketch encodes row after row in a result batch) and copied out at its length.
   */
  encode(): Uint8Array {
    let n = 0;
    for (let i = 0; i < this.length; i++) if (this.bin(i) > 0) n++;
    const bound = 1 + (2 + 2 * n) * MAX_VARINT_BYTES;
    if (this.encoded.length < bound) this.encoded = new Uint8Array(Math.max(bound, 2 * this.encoded.length));
    const out = this.encoded;
    out[0] = FORMAT_VERSION;
    let at = putVarint(out, 1, this.zero);
    at = putVarint(out, at, n);
    let prev = 0;
    for (let i = 0; i < this.length; i++) {
      const c = this.bin(i);
      if (c <= 0) continue;
      const key = i + this.offset;
      at = putVarint(out, at, zigzag(key - prev));
      at = putVarint(out, at, c);
      prev = key;
    }
    return out.slice(0, at);
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

/** A non-negative safe integer (< 2^53) takes at most 8 varint bytes of 7 bits. */
const MAX_VARINT_BYTES = 8;

/** Writes `value` as a varint at `at`; returns the index after it. Division, not shifts: counts may pass 2^31. */
function putVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  let i = at;
  while (v >= 0x80) {
    out[i++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[i++] = v;
  return i;
}
