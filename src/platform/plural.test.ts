import { describe, expect, it } from 'vitest';
import { plural, spanText } from './plural.ts';

describe('plural', () => {
  it('puts the noun in the right number', () => {
    expect(plural(1, 'check')).toBe('1 check');
    expect(plural(0, 'check')).toBe('0 checks');
    expect(plural(2, 'day')).toBe('2 days');
    expect(plural(1.5, 'day')).toBe('1.5 days');
    expect(plural(3, 'query', 'queries')).toBe('3 queries');
  });

  it('says a span in its largest unit', () => {
    expect(spanText(1000)).toBe('1 second');
    expect(spanText(5 * 3600_000)).toBe('5 hours');
    expect(spanText(60_000)).toBe('1 minute');
    expect(spanText(86_400_000)).toBe('1 day');
    expect(spanText(1.5 * 86_400_000)).toBe('1.5 days');
  });
});
