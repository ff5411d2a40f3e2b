import { describe, expect, it } from 'vitest';
import { DecodedSketches, LatencySketch } from './latency.sketch.ts';

/** A small deterministic generator: the same latencies on every run. */
function values(seed: number, n: number): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    // Some zeros, a body around 40 ms and a long tail.
    out.push(i % 17 === 0 ? 0 : (x % 1000 < 950 ? 20 + (x % 40) : 200 + (x % 5000)) + (x % 7) / 10);
  }
  return out;
}

describe('LatencySketch.quantiles', () => {
  const qs = [0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1];

  it('gives quantile(q) for each q in one pass', () => {
    for (const [seed, n] of [
      [1, 1],
      [2, 2],
      [3, 17],
      [4, 500],
      [5, 5000],
    ] as const) {
      const s = new LatencySketch();
      for (const v of values(seed, n)) s.add(v);
      expect(s.quantiles(qs)).toEqual(qs.map((q) => s.quantile(q)));
    }
  });

  it('agrees on sketches merged with a part taken away again, only zeros, and empty', () => {
    const day = new LatencySketch();
    const hour = new LatencySketch();
    for (const v of values(7, 300)) day.add(v);
    for (const v of values(8, 40)) {
      day.add(v);
      hour.add(v);
    }
    const rest = new LatencySketch();
    rest.mergeEncoded(day.encode());
    rest.mergeEncoded(hour.encode(), -1);
    expect(rest.count).toBe(300);
    expect(rest.quantiles(qs)).toEqual(qs.map((q) => rest.quantile(q)));

    const zeros = new LatencySketch();
    zeros.add(0);
    zeros.add(0);
    expect(zeros.quantiles(qs)).toEqual(qs.map(() => 0));
    expect(new LatencySketch().quantiles([0.5, 0.99])).toEqual([null, null]);
  });

  it('reads hexadecimal text (either case) as the bytes it spells', () => {
    const s = new LatencySketch();
    for (const v of values(9, 400)) s.add(v);
    const bytes = s.encode();
    const hex = Buffer.from(bytes).toString('hex');
    for (const text of [hex, hex.toUpperCase()]) {
      const t = new LatencySketch();
      t.mergeEncoded(text);
      expect(t.encode()).toEqual(bytes);
      t.mergeEncoded(text, -1);
      expect(t.count).toBe(0);
    }
    expect(() => new LatencySketch().mergeEncoded('01x0')).toThrow(/hexadecimal/);
    new LatencySketch().mergeEncoded('');
  });

  it('reads framed text: several sketches, each preceded by its length (4 bytes), empty frames adding no row', () => {
    const sketches = [values(1, 50), values(2, 300), values(3, 7)].map((vs) => {
      const s = new LatencySketch();
      for (const v of vs) s.add(v);
      return s;
    });
    const frame = (bytes: Uint8Array) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return Buffer.concat([length, bytes]).toString('hex');
    };
    const text = [
      frame(sketches[0]!.encode()),
      frame(new Uint8Array(0)),
      ...sketches.slice(1).map((s) => frame(s.encode())),
    ]
      .join('')
      .toUpperCase();
    const decoded = new DecodedSketches();
    expect(decoded.push(sketches[2]!.encode())).toBe(0);
    expect(decoded.pushFramed(text)).toBe(3);
    expect(decoded.size).toBe(4);
    sketches.forEach((s, i) => {
      const t = new LatencySketch();
      t.mergeDecoded(decoded, i + 1);
      expect(t.encode()).toEqual(s.encode());
    });
    expect(decoded.pushFramed(null)).toBe(0);
    expect(decoded.pushFramed('')).toBe(0);
    expect(() => decoded.pushFramed(text.slice(0, -2))).toThrow(/truncated/);
    expect(() => decoded.pushFramed('000000')).toThrow(/truncated/);
    expect(() => decoded.pushFramed('0000000x')).toThrow(/hexadecimal/);
  });
});
