import { describe, expect, it } from 'vitest';
import { cycleDetail, dependencyCycle } from './monitor.dependencies.ts';

const edge = (monitorId: string, dependsOnId: string) => ({ monitorId, dependsOnId });

describe('dependencyCycle', () => {
  it('finds none in a tree or a diamond', () => {
    const edges = [edge('b', 'a'), edge('c', 'a'), edge('d', 'b'), edge('d', 'c')];
    expect(dependencyCycle(edges, 'e', ['d', 'a'])).toBeNull();
    expect(dependencyCycle(edges, 'd', ['b', 'c'])).toBeNull();
  });

  it('finds a monitor depending on itself', () => {
    expect(dependencyCycle([], 'a', ['a'])).toEqual(['a', 'a']);
    expect(cycleDetail(['a', 'a'], ['x', 'a'])).toEqual({
      field: 'config.depends_on[1]',
      issue: 'a monitor cannot depend on itself',
    });
  });

  it('finds the path of a longer cycle and names the entry that starts it', () => {
    const edges = [edge('b', 'a'), edge('c', 'b')];
    const cycle = dependencyCycle(edges, 'a', ['x', 'c']);
    expect(cycle).toEqual(['a', 'c', 'b', 'a']);
    expect(cycleDetail(cycle!, ['x', 'c'])).toEqual({
      field: 'config.depends_on[1]',
      issue: 'would make a dependency cycle: a → c → b → a',
    });
  });

  it("replaces the monitor's stored edges with the new list", () => {
    // a used to depend on c (which depends on b, which depends on a: the stored graph had a cycle through a);
    // with a's new list the cycle is gone.
    const edges = [edge('a', 'c'), edge('b', 'a'), edge('c', 'b')];
    expect(dependencyCycle(edges, 'a', [])).toBeNull();
  });
});
