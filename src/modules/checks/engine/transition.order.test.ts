import { describe, expect, it } from 'vitest';
import type { MonitorTransition } from './check.types.ts';
import { parentsFirst } from './transition.order.ts';

const t = (monitorId: string, at: number): MonitorTransition => ({
  organizationId: 'org_1',
  monitorId,
  monitorName: monitorId,
  from: 'up',
  to: 'down',
  at,
  cause: null,
  executionId: null,
});

const monitors = (edges: Record<string, string[]>) =>
  new Map(Object.entries(edges).map(([id, parents]) => [id, { config: { depends_on: parents } }]));

const order = (ts: MonitorTransition[], edges: Record<string, string[]>) =>
  parentsFirst(ts, monitors(edges) as never).map((x) => `${x.monitorId}@${x.at}`);

describe('parentsFirst: a batch’s transitions with parents before their children', () => {
  it('moves a parent judged after its children in front of them, keeping everything else in order', () => {
    const batch = [t('svc1', 1), t('other', 2), t('svc2', 3), t('router', 4)];
    const edges = { svc1: ['router'], svc2: ['router'], other: [], router: [] };
    expect(order(batch, edges)).toEqual(['router@4', 'svc1@1', 'other@2', 'svc2@3']);
  });

  it('orders a chain level by level and leaves parents outside the batch alone', () => {
    const batch = [t('service', 1), t('switch', 2), t('router', 3), t('leaf', 4)];
    const edges = { service: ['switch'], switch: ['router'], router: [], leaf: ['absent'] };
    expect(order(batch, edges)).toEqual(['router@3', 'switch@2', 'service@1', 'leaf@4']);
  });

  it('keeps two transitions of one monitor together and in their order', () => {
    const batch = [t('child', 1), t('parent', 2), t('child', 3)];
    expect(order(batch, { child: ['parent'], parent: [] })).toEqual(['parent@2', 'child@1', 'child@3']);
  });
});
