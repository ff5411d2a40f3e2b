import type { Database } from '../../platform/db/index.ts';

/**
 * DECISIONS §17, the dependency part of "does this monitor incident alert?": a child whose outage begins while a
 * parent is down or in maintenance is held (recorded, not alerted); it alerts once every parent has recovered if it
 * is still down. This file is the decision and the port it reads; IncidentsService applies it.
 */

/** How a parent stands for its children's alerts. */
export type ParentCondition = 'down' | 'maintenance' | 'clear';

export interface ParentState {
  monitorId: string;
  name: string;
  condition: ParentCondition;
}

export interface ChildState {
  monitorId: string;
  name: string;
  /** The child is down now (a paused or recovered child has nothing to alert). */
  down: boolean;
  /** How long after its parents' recovery the child's own checks have seen it (see `releaseDelayMs`). */
  releaseDelayMs: number;
}

/**
 * The port the decision reads, always through the transition's transaction. Composed in the composition root from
 * the monitors module (parents' statuses); a maintenance gate answers `maintenance` for a parent inside a window by
 * wrapping it.
 */
export interface MonitorDependencies {
  /** The parents of `monitorId` (its `config.depends_on`) and how each stands now; empty without parents. */
  parentStatesOf(tx: Database, monitorId: string): Promise<ParentState[]>;
  /** The monitors whose `config.depends_on` lists `monitorId`. */
  childrenOf(tx: Database, monitorId: string): Promise<ChildState[]>;
  /** One monitor as a child (null when it no longer exists). */
  childStateOf(tx: Database, monitorId: string): Promise<ChildState | null>;
}

/**
 * A child's status is as old as its last check: when its parent recovers, a child still marked down has usually not
 * been checked since. Its alert waits until its own checks have had the time to see the recovery (its interval times
 * its success threshold, plus one interval for the check in flight); a child that recovers meanwhile is never alerted.
 */
export function releaseDelayMs(intervalSeconds: number, successThreshold: number): number {
  return intervalSeconds * 1000 * (successThreshold + 1);
}

/** The parents that hold a child's alert back now; empty: nothing does (it alerts). */
export function blockingParents(parents: readonly ParentState[]): ParentState[] {
  return parents.filter((p) => p.condition !== 'clear');
}

/** The timeline's words for a hold: "Alert held: Router is down, Core switch is in maintenance." */
export function heldMessage(blocking: readonly ParentState[]): string {
  const parts = blocking.map((p) => `${p.name} is ${p.condition === 'down' ? 'down' : 'in maintenance'}`);
  return `Alert held: ${parts.join(', ')}.`;
}

/**
 * The port from the monitors' statuses alone: `down` is down; a status `maintenance` (if the monitors module has
 * one) is in maintenance; anything else is clear.
 */
interface RelatedMonitor {
  id: string;
  name: string;
  status: string;
  intervalSeconds: number;
  successThreshold: number;
}

function childState(c: RelatedMonitor): ChildState {
  return {
    monitorId: c.id,
    name: c.name,
    down: c.status === 'down',
    releaseDelayMs: releaseDelayMs(c.intervalSeconds, c.successThreshold),
  };
}

export function dependenciesFromStatuses(monitors: {
  parentsOf(db: Database, monitorId: string): Promise<RelatedMonitor[]>;
  childrenOf(db: Database, monitorId: string): Promise<RelatedMonitor[]>;
  relatedOf(db: Database, monitorId: string): Promise<RelatedMonitor | null>;
}): MonitorDependencies {
  return {
    async parentStatesOf(tx, monitorId) {
      return (await monitors.parentsOf(tx, monitorId)).map((p) => ({
        monitorId: p.id,
        name: p.name,
        condition: p.status === 'down' ? 'down' : p.status === 'maintenance' ? 'maintenance' : 'clear',
      }));
    },
    async childrenOf(tx, monitorId) {
      return (await monitors.childrenOf(tx, monitorId)).map(childState);
    },
    async childStateOf(tx, monitorId) {
      const found = await monitors.relatedOf(tx, monitorId);
      return found ? childState(found) : null;
    },
  };
}
