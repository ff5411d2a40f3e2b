import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids.ts';

describe('newId', () => {
  it('stays well-formed across many pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = newId('dst', 1_763_000_000_000 + i);
      expect(isId(id, 'dst'), id).toBe(true);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
  });

  it('sorts by time', () => {
    const a = newId('mon', 1_000_000);
    const b = newId('mon', 1_000_001);
    expect(a < b).toBe(true);
  });

  it('accepts fractional and negative times without producing junk', () => {
    expect(isId(newId('evt', 1234.56), 'evt')).toBe(true);
    expect(isId(newId('evt', -5), 'evt')).toBe(true);
  });
});
