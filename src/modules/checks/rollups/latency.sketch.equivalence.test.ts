import { DDSketch } from '@datadog/sketches-js';
import { describe, expect, it } from 'vitest';
import { DecodedSketches, LatencySketch, SKETCH_RELATIVE_ACCURACY } from './latency.sketch.ts';

/*
 * The sketch as it was before reports decoded rows once and reused one sketch per day (commit 908dcb6): bins in a
 * plain array grown key by key, decoding interleaved with merging. Kept here as the reference the new code must
 * match figure for figure (reports compare exact figures).
 */
const FORMAT_VERSION = 1;
const MAPPING = new DDSketch({ relativeAccuracy: SKETCH_RELATIVE_ACCURACY }).mapping;

class PreviousSketch {
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

  merge(other: PreviousSketch): void {
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

  static decode(bytes: Uint8Array | null | undefined): PreviousSketch {
    const s = new PreviousSketch();
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

/** A seeded generator: the same cases on every run. */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 48271) % 2147483647) / 2147483647;
}

/** Latencies as monitors see them: zeros, values below the mapping's minimum, a body, a long tail, huge outliers. */
function latency(rnd: () => number): number {
  const r = rnd();
  if (r < 0.05) return 0;
  if (r < 0.08) return MAPPING.minPossible / 2;
  if (r < 0.8) return 5 + rnd() * 60;
  if (r < 0.97) return 100 + rnd() * rnd() * 20_000;
  return 1e6 * (1 + rnd());
}

const QS = [0, 0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1];

function figures(s: LatencySketch | PreviousSketch) {
  return {
    count: s.count,
    mean: s.mean(),
    quantile: QS.map((q) => s.quantile(q)),
    quantiles: s.quantiles(QS),
    encoded: [...s.encode()],
  };
}

describe('LatencySketch against the previous implementation', () => {
  it('gives the same figures and bytes for random sketches added, merged, read as hex or bytes and taken away', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rnd = random(seed);
      // A "day" of hours: hours 0..n − 1, some of them empty or a single value.
      const hours = Array.from({ length: 1 + Math.floor(rnd() * 24) }, () => {
        const kind = rnd();
        const n = kind < 0.1 ? 0 : kind < 0.2 ? 1 : 1 + Math.floor(rnd() * 150);
        return Array.from({ length: n }, () => latency(rnd));
      });
      const encodedHours = hours.map((values) => {
        const s = new PreviousSketch();
        for (const v of values) s.add(v);
        return s.encode();
      });
      const previousDay = new PreviousSketch();
      const day = new LatencySketch();
      for (const values of hours)
        for (const v of values) {
          previousDay.add(v);
          day.add(v);
        }
      expect(figures(day)).toEqual(figures(previousDay));
      const dayBytes = previousDay.encode();
      expect([...day.encode()]).toEqual([...dayBytes]);

      // The report's way: the day's row less some hours plus others (as hex text), through one decoder, into a reused
      // scratch sketch with reserved room; the previous way: mergeEncoded row by row into a fresh sketch.
      const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
      const taken = encodedHours.filter(() => rnd() < 0.3);
      const added = encodedHours.filter(() => rnd() < 0.3);
      const previous = new PreviousSketch();
      previous.mergeEncoded(hex(dayBytes));
      for (const b of taken) previous.mergeEncoded(hex(b), -1);
      for (const b of added) previous.mergeEncoded(rnd() < 0.5 ? b : hex(b).toUpperCase());

      const decoded = new DecodedSketches();
      const rows = [decoded.push(hex(dayBytes)), ...taken.map((b) => decoded.push(hex(b)))];
      const plus = added.map((b) => decoded.push(b));
      let low = Infinity;
      let high = -Infinity;
      for (const r of [...rows, ...plus].filter((r) => r >= 0)) {
        low = Math.min(low, decoded.lowKey(r));
        high = Math.max(high, decoded.highKey(r));
      }
      const scratch = new LatencySketch();
      // Used once for the same day first: clear() must leave nothing behind.
      for (const values of hours) for (const v of values) scratch.add(v);
      scratch.clear();
      scratch.reserve(low, high);
      rows.forEach((r, i) => {
        if (r >= 0) scratch.mergeDecoded(decoded, r, i === 0 ? 1 : -1);
      });
      for (const r of plus) if (r >= 0) scratch.mergeDecoded(decoded, r, 1);
      expect(figures(scratch), `seed ${seed}`).toEqual(figures(previous));

      // merge(): into a sketch that already holds something, as a monitor's total takes its days.
      const previousTotal = PreviousSketch.decode(encodedHours[0]);
      const total = LatencySketch.decode(encodedHours[0]);
      previousTotal.merge(previous);
      total.merge(scratch);
      expect(figures(total), `seed ${seed}`).toEqual(figures(previousTotal));
    }
  });

  it('agrees on empty sketches, only zeros and a single value', () => {
    const cases: number[][] = [[], [0], [0, 0, 0], [42], [MAPPING.minPossible / 10, 7]];
    for (const values of cases) {
      const previous = new PreviousSketch();
      const now = new LatencySketch();
      for (const v of values) {
        previous.add(v);
        now.add(v);
      }
      expect(figures(now)).toEqual(figures(previous));
      const again = new LatencySketch();
      again.reserve(1, 0); // an empty range: no room, no change
      again.mergeEncoded(previous.encode());
      expect(figures(again)).toEqual(figures(previous));
    }
  });

  it('encodes row after row with one sketch, wide and narrow, counts past 2^32, byte for byte', () => {
    const rnd = random(7);
    const reused = new LatencySketch();
    for (let row = 0; row < 60; row++) {
      const wide = row % 3 === 0;
      const values = Array.from({ length: 1 + Math.floor(rnd() * (wide ? 2000 : 20)) }, () =>
        wide ? 1e-3 + rnd() * 1e7 : latency(rnd),
      );
      const previous = new PreviousSketch();
      for (const v of values) previous.add(v);
      reused.clear();
      reused.mergeEncoded(previous.encode());
      expect([...reused.encode()], `row ${row}`).toEqual([...previous.encode()]);
    }
    // Counts that need more than 32 bits: zeros 2^40 + 3, one bin 2^35 + 1, another 2^52 (key far below zero too).
    const big: number[] = [FORMAT_VERSION];
    writeVarint(big, 2 ** 40 + 3);
    writeVarint(big, 2);
    for (const v of [zigzag(-5000), 2 ** 35 + 1, zigzag(9000), 2 ** 52]) writeVarint(big, v);
    const bytes = Uint8Array.from(big);
    const previous = PreviousSketch.decode(bytes);
    reused.clear();
    reused.mergeEncoded(bytes);
    expect([...reused.encode()]).toEqual([...previous.encode()]);
    expect([...reused.encode()]).toEqual([...bytes]);
  });

  it('rejects malformed sketches and changes nothing', () => {
    const decoded = new DecodedSketches();
    expect(() => decoded.push('0')).toThrow(/odd hexadecimal/);
    expect(() => decoded.push('01zz')).toThrow(/hexadecimal/);
    expect(() => decoded.push('02000000')).toThrow(/format 2/);
    expect(() => decoded.push(Uint8Array.from([1, 0, 5, 2]))).toThrow(/truncated/);
    expect(() => decoded.push(Uint8Array.from([1, 0, 0xff, 0xff, 0xff, 0x7f]))).toThrow(/truncated/);
    expect(decoded.size).toBe(0);
    expect(decoded.push('')).toBe(-1);
    expect(decoded.push(null)).toBe(-1);
  });
});
