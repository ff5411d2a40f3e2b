import { describe, expect, it } from 'vitest';
import { plural } from '../../web/src/lib/format.ts';

describe('web plural', () => {
  it('says 1 monitor, 2 monitors, 0 checks, 1 second', () => {
    expect(plural(1, 'monitor')).toBe('1 monitor');
    expect(plural(2, 'monitor')).toBe('2 monitors');
    expect(plural(0, 'check')).toBe('0 checks');
    expect(plural(1, 'second')).toBe('1 second');
  });
});
