import { describe, expect, it } from 'vitest';
import { diffViews, resourceChange } from './audit.changes.ts';

describe('diffViews', () => {
  it('lists each changed leaf by its path, creations and deletions with null on the missing side', () => {
    expect(
      diffViews(
        { name: 'a', config: { timeout_ms: 1, method: 'GET' } },
        { name: 'a', config: { timeout_ms: 2, method: 'GET' } },
      ),
    ).toEqual({
      'config.timeout_ms': [1, 2],
    });
    expect(diffViews(null, { name: 'a', tags: ['x'] })).toEqual({ name: [null, 'a'], tags: [null, ['x']] });
    expect(diffViews({ name: 'a' }, null)).toEqual({ name: ['a', null] });
    expect(diffViews({ name: 'a', updatedAt: 1 }, { name: 'a', updatedAt: 2 })).toEqual({});
  });

  it('masks secrets by name (snake or camel case, nested) and by the listed fields, and URL credentials in text', () => {
    const changes = diffViews(
      {
        config: { headers: { 'X-Api-Key': 'k1' }, url: 'https://u:pw1@h.example/x?token=t1' },
        heartbeatToken: 'h1',
        sealed: 's1',
      },
      {
        config: { headers: { 'X-Api-Key': 'k2' }, url: 'https://u:pw2@h.example/x?token=t2' },
        heartbeatToken: 'h2',
        sealed: 's2',
      },
      ['sealed'],
    );
    expect(changes).toEqual({
      'config.headers.X-Api-Key': ['[redacted]', '[redacted]'],
      'config.url': [
        'https://u:[redacted]@h.example/x?token=[redacted]',
        'https://u:[redacted]@h.example/x?token=[redacted]',
      ],
      heartbeatToken: ['[redacted]', '[redacted]'],
      sealed: ['[redacted]', '[redacted]'],
    });
    expect(JSON.stringify(changes)).not.toMatch(/k1|k2|pw1|pw2|t1|t2|h1|h2|s1|s2/);
    // A secret inside an array value is masked too.
    expect(diffViews(null, { list: [{ password: 'p' }] })).toEqual({ list: [null, [{ password: '[redacted]' }]] });
  });

  it('resourceChange leaves out the id, the organization and the omitted fields', () => {
    const before = { id: 'mon_1', organizationId: 'org_1', name: 'a', status: 'up' };
    const after = { ...before, name: 'b', status: 'down' };
    const change = resourceChange('monitor.update', 'monitor', before, after, { omit: ['status'] });
    expect(change).toMatchObject({
      organizationId: 'org_1',
      action: 'monitor.update',
      target: { type: 'monitor', id: 'mon_1' },
    });
    expect(diffViews(change.before, change.after)).toEqual({ name: ['a', 'b'] });
  });
});
