import { describe, expect, it } from 'vitest';
import { LatenessWindow } from './lateness.window.ts';

const T0 = Date.parse('2026-06-01T00:00:00.000Z');

describe('LatenessWindow', () => {
  it('is empty until something is recorded', () => {
    expect(new LatenessWindow().summary(T0)).toBeNull();
  });

  it('gives p50 and p99 within 10 % and the exact maximum', () => {
    const w = new LatenessWindow();
    // 1..1000 ms, one each: p50 = 500, p99 = 990.
    for (let i = 1; i <= 1000; i++) w.record(T0 + (i % 50) * 1000, i);
    const s = w.summary(T0 + 59_999)!;
    expect(s.count).toBe(1000);
    expect(s.maxMs).toBe(1000);
    expect(s.p50Ms).toBeGreaterThanOrEqual(500);
    expect(s.p50Ms).toBeLessThanOrEqual(550);
    expect(s.p99Ms).toBeGreaterThanOrEqual(990);
    expect(s.p99Ms).toBeLessThanOrEqual(1000);
  });

  it('zero and negative lateness (claimed ahead) count as 0', () => {
    const w = new LatenessWindow();
    w.record(T0, 0);
    w.record(T0, -50);
    expect(w.summary(T0)).toEqual({ count: 2, p50Ms: 0, p99Ms: 0, maxMs: 0 });
  });

  it('forgets what is older than the window, second by second, and reuses the memory', () => {
    const w = new LatenessWindow(60_000, 1_000);
    w.record(T0, 40_000);
    w.record(T0 + 30_000, 20);
    expect(w.summary(T0 + 59_999)!).toMatchObject({ count: 2, maxMs: 40_000 });
    // At T0 + 60 s the second of T0 has left the window.
    expect(w.summary(T0 + 60_000)!).toEqual({ count: 1, p50Ms: 20, p99Ms: 20, maxMs: 20 });
    // Recording two windows later overwrites the row that held T0 + 30 s.
    w.record(T0 + 150_000, 7);
    expect(w.summary(T0 + 150_000)!).toEqual({ count: 1, p50Ms: 7, p99Ms: 7, maxMs: 7 });
    expect(w.summary(T0 + 210_000)).toBeNull();
  });

  it('a lateness of days lands in the last bucket, reported as the maximum seen', () => {
    const w = new LatenessWindow();
    w.record(T0, 5 * 86_400_000);
    expect(w.summary(T0)!.p99Ms).toBe(5 * 86_400_000);
  });
});
