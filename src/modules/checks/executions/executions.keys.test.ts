import { describe, expect, it } from 'vitest';
import { keysInRowOrder } from './executions.repository.ts';

const rows = [
  { monitor_key: 7, started_at: 1_000 },
  { monitor_key: 8, started_at: 1_000 },
  { monitor_key: 7, started_at: 2_000 },
];

describe('keysInRowOrder', () => {
  it('takes the returned keys in order when the rows came back in the order sent', () => {
    const inserted = rows.map((r, i) => ({ id: 100 + i, ...r }));
    expect(keysInRowOrder(rows, inserted)).toEqual([100, 101, 102]);
  });

  it('matches each row to its returned key by monitor and start when the order differs', () => {
    const inserted = [
      { id: 102, monitor_key: 7, started_at: 2_000 },
      { id: 100, monitor_key: 7, started_at: 1_000 },
      { id: 101, monitor_key: 8, started_at: 1_000 },
    ];
    expect(keysInRowOrder(rows, inserted)).toEqual([100, 101, 102]);
  });

  it('gives rows with the same monitor and start distinct keys', () => {
    const twins = [rows[0]!, rows[0]!, rows[1]!];
    const inserted = [
      { id: 5, monitor_key: 8, started_at: 1_000 },
      { id: 3, monitor_key: 7, started_at: 1_000 },
      { id: 4, monitor_key: 7, started_at: 1_000 },
    ];
    expect(keysInRowOrder(twins, inserted)).toEqual([3, 4, 5]);
  });

  it('fails when a row got no key', () => {
    expect(() => keysInRowOrder(rows, [{ id: 1, monitor_key: 7, started_at: 1_000 }])).toThrow(/no key/);
  });
});
