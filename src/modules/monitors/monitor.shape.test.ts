import { describe, expect, it } from 'vitest';
import { mergeDetails, wellShapedPart } from './monitor.shape.ts';

describe('wellShapedPart', () => {
  it('drops the top-level fields and config keys the schema found ill-shaped', () => {
    const body = { target: 'x', tags: 'x', config: { timeout_ms: 1, headers: { 'x-a': 5 }, method: 'GET' } };
    const part = wellShapedPart(body, [
      { field: 'tags', issue: 'must be an array' },
      { field: 'config.timeout_ms', issue: 'must be between 100 and 60000' },
      { field: 'config.headers.x-a', issue: 'must be a string' },
    ]);
    expect(part).toEqual({ target: 'x', config: { method: 'GET' } });
    expect(body.config.timeout_ms).toBe(1);
  });

  it('drops a config that is not an object, and an item of a list drops the list', () => {
    expect(
      wellShapedPart({ config: 'x', tags: ['a', 5] }, [
        { field: 'config', issue: 'must be an object' },
        { field: 'tags[1]', issue: 'must be a string' },
      ]),
    ).toEqual({});
  });

  it('judges nothing when the body is not an object or its type is unknown', () => {
    expect(wellShapedPart([], [{ field: 'body', issue: 'must be a JSON object' }])).toBeNull();
    expect(wellShapedPart({ type: 'ftp' }, [{ field: 'type', issue: 'must be one of …' }])).toBeNull();
  });
});

describe('mergeDetails', () => {
  it('keeps the shape details and adds the domain ones for other fields', () => {
    expect(
      mergeDetails(
        [{ field: 'target', issue: 'is required' }],
        [
          { field: 'target', issue: 'is required' },
          { field: 'region_codes[0]', issue: 'must be one of the regions local' },
        ],
      ),
    ).toEqual([
      { field: 'target', issue: 'is required' },
      { field: 'region_codes[0]', issue: 'must be one of the regions local' },
    ]);
  });
});
