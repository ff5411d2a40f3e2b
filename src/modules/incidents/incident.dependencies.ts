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
export function dependenciesFromStatuses(monitors: {
  parentsOf(db: Database, monitorId: string): Promise<Array<{ id: string; name: string; status: string }>>;
  childrenOf(db: Database, monitorId: string): Promise<Array<{ id: string; name: string; status: string }>>;
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
      return (await monitors.childrenOf(tx, monitorId)).map((c) => ({
        monitorId: c.id,
        name: c.name,
        down: c.status === 'down',
      }));
    },
  };
}
