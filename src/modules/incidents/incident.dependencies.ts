import type { Database } from '../../platform/db/index.ts';

/**
 * DECISIONS §17, the dependency part of "does this monitor incident alert?": a child whose outage begins while a
 * parent is down or in maintenance is held (recorded, not alerted); it alerts once every parent has recovered if it
 * is still down. This file is the decision and the port it reads; IncidentsService applies it.
 */

/**
 * How a parent stands for its children's alerts: `down`; in `maintenance` (inside a window, whatever its stored
 * status); `failing`: its latest check failed but its outage is not confirmed yet (a child whose own threshold is
 * reached first, in the same result batch or an earlier one, must not alert ahead of its parent); else `clear`.
 */
export type ParentCondition = 'down' | 'maintenance' | 'failing' | 'clear';

export interface ParentState {
  monitorId: string;
  name: string;
  condition: ParentCondition;
  /**
   * `maintenance`: the end of the occurrence it is in; `failing`: when its own verdict is due at the latest. The held
   * child is looked at again then (a `down` parent has none: its recovery releases its children).
   */
  until?: number;
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
  /** The parents of `monitorId` (its `config.depends_on`) and how each stands at `at`; empty without parents. */
  parentStatesOf(tx: Database, monitorId: string, at: number): Promise<ParentState[]>;
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

/**
 * When a held child is to be looked at again without waiting for a parent's recovery: the latest `until` of its
 * blocking parents when none of them is `down` (a parent in maintenance or failing unconfirmed ends by itself); null
 * when a `down` parent holds it (that parent's recovery sets the time).
 */
export function recheckAt(blocking: readonly ParentState[]): number | null {
  if (blocking.length === 0 || blocking.some((p) => p.condition === 'down' || p.until === undefined)) return null;
  return Math.max(...blocking.map((p) => p.until!));
}

const CONDITION_WORDS: Record<Exclude<ParentCondition, 'clear'>, string> = {
  down: 'down',
  maintenance: 'in maintenance',
  failing: 'failing its checks',
};

/** The timeline's words for a hold: "Alert held: Router is down, Core switch is in maintenance." */
export function heldMessage(blocking: readonly ParentState[]): string {
  const parts = blocking.map(
    (p) => `${p.name} is ${CONDITION_WORDS[p.condition as Exclude<ParentCondition, 'clear'>]}`,
  );
  return `Alert held: ${parts.join(', ')}.`;
}

/** A monitor at one end of a dependency edge (the monitors module's RelatedMonitor). */
interface RelatedMonitor {
  id: string;
  name: string;
  status: string;
  intervalSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

/**
 * What else decides a parent's condition besides its stored status, read through the transition's transaction;
 * composed in the composition root from the maintenance module and the check engine's counters.
 */
export interface ParentSignals {
  /** Per parent inside a maintenance window at `at`: the end of that occurrence (the latest, if several). */
  maintenanceUntil(tx: Database, parentIds: readonly string[], at: number): Promise<Map<string, number>>;
  /** Per parent whose latest check failed in some region: that check's time and the failures in a row so far. */
  unconfirmedFailures(
    tx: Database,
    parentIds: readonly string[],
  ): Promise<Map<string, { lastAt: number; failures: number }>>;
}

/**
 * A failing parent's verdict is due at the latest when the checks its failure threshold still needs have run, plus
 * one interval for the check in flight (and never before one interval from `at`).
 */
export function failingUntil(
  parent: Pick<RelatedMonitor, 'intervalSeconds' | 'failureThreshold'>,
  failure: { lastAt: number; failures: number },
  at: number,
): number {
  const interval = parent.intervalSeconds * 1000;
  const remaining = Math.max(0, parent.failureThreshold - failure.failures);
  return Math.max(at + interval, failure.lastAt + interval * (remaining + 1));
}

function childState(c: RelatedMonitor): ChildState {
  return {
    monitorId: c.id,
    name: c.name,
    down: c.status === 'down',
    releaseDelayMs: releaseDelayMs(c.intervalSeconds, c.successThreshold),
  };
}

/**
 * The port from the monitors' statuses and, with `signals`, windows and unconfirmed failures: a stored `down` is
 * down; a parent inside a window is in maintenance (its stored status stays what its checks said); a parent not
 * paused whose latest check failed is failing; anything else is clear.
 */
export function dependenciesFromStatuses(
  monitors: {
    parentsOf(db: Database, monitorId: string): Promise<RelatedMonitor[]>;
    childrenOf(db: Database, monitorId: string): Promise<RelatedMonitor[]>;
    relatedOf(db: Database, monitorId: string): Promise<RelatedMonitor | null>;
  },
  signals?: ParentSignals,
): MonitorDependencies {
  return {
    async parentStatesOf(tx, monitorId, at) {
      const parents = await monitors.parentsOf(tx, monitorId);
      const open = parents.filter((p) => p.status !== 'down' && p.status !== 'paused').map((p) => p.id);
      const windows = signals && open.length > 0 ? await signals.maintenanceUntil(tx, open, at) : new Map();
      const rest = open.filter((id) => !windows.has(id));
      const failing = signals && rest.length > 0 ? await signals.unconfirmedFailures(tx, rest) : new Map();
      return parents.map((p): ParentState => {
        const base = { monitorId: p.id, name: p.name };
        if (p.status === 'down') return { ...base, condition: 'down' };
        const end = windows.get(p.id);
        if (end !== undefined) return { ...base, condition: 'maintenance', until: end };
        // A degraded parent's failures that reached its threshold were judged (DECISIONS §20: failing in fewer regions
        // than confirm_regions is not an outage) and hold no child back, or a child would wait as long as the
        // degradation lasts; failures not judged yet hold it as for any parent (the blip rule).
        const seen = failing.get(p.id);
        const failure = p.status === 'degraded' && seen && seen.failures >= p.failureThreshold ? undefined : seen;
        if (failure) return { ...base, condition: 'failing', until: failingUntil(p, failure, at) };
        return { ...base, condition: 'clear' };
      });
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
