import { describe, expect, it } from 'vitest';
import { generateTestCa } from '../../../../test/support/targets/index.ts';
import { createSecureContextCache } from './secure-context.cache.ts';

describe('secure context cache', () => {
  it('builds one context per distinct CA set, reused across checks', async () => {
    const [a, b] = await Promise.all([generateTestCa('CA A'), generateTestCa('CA B')]);
    const contextFor = createSecureContextCache();
    expect(contextFor([undefined, null, ''])).toBeUndefined();
    const onlyA = contextFor([a.cert]);
    expect(contextFor([a.cert, null])).toBe(onlyA);
    const both = contextFor([a.cert, b.cert]);
    expect(both).not.toBe(onlyA);
    expect(contextFor([a.cert, b.cert])).toBe(both);
    expect(contextFor([b.cert])).not.toBe(onlyA);
  });

  it('drops the least recently used CA set beyond its size', async () => {
    const [a, b, c] = await Promise.all([generateTestCa('CA A'), generateTestCa('CA B'), generateTestCa('CA C')]);
    const contextFor = createSecureContextCache(2);
    const first = contextFor([a.cert]);
    const second = contextFor([b.cert]);
    expect(contextFor([a.cert])).toBe(first); // a is now the most recent
    contextFor([c.cert]); // evicts b
    expect(contextFor([a.cert])).toBe(first);
    expect(contextFor([b.cert])).not.toBe(second);
  });
});
