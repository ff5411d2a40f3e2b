import { useState } from 'react';
import type { ApiError } from '../api/client';
import type { Monitor } from '../api/monitors';
import { FieldIssue } from '../ui/form';
import { MonitorPickList } from '../ui/monitor-pick-list';

/** A group as edited: `key` keeps React's rows stable while groups move. */
export interface GroupDraft {
  key: number;
  name: string;
  monitor_ids: string[];
  collapsed: boolean;
}

let nextKey = 1;
export function groupDrafts(groups: ReadonlyArray<Omit<GroupDraft, 'key'>>): GroupDraft[] {
  return groups.map((g) => ({ ...g, monitor_ids: [...g.monitor_ids], key: nextKey++ }));
}

/**
 * The page's layout: ordered groups (add, rename, move, remove, fold, each with its monitors) and the ungrouped
 * monitors after them. A monitor is offered in one list only: the ones chosen elsewhere are left out of the others.
 */
export function LayoutEditor({
  monitors,
  groups,
  onGroups,
  ungrouped,
  onUngrouped,
  error,
}: {
  monitors: Monitor[];
  groups: GroupDraft[];
  onGroups: (groups: GroupDraft[]) => void;
  ungrouped: string[];
  onUngrouped: (ids: string[]) => void;
  error: ApiError | null | undefined;
}) {
  const [filters, setFilters] = useState<Record<string, string>>({});
  const filterOf = (key: string) => filters[key] ?? '';
  const setFilter = (key: string) => (value: string) => setFilters((f) => ({ ...f, [key]: value }));
  /** Monitors not chosen in another list than this one. */
  const offered = (own: readonly string[]) => {
    const elsewhere = new Set([...groups.flatMap((g) => g.monitor_ids), ...ungrouped]);
    for (const id of own) elsewhere.delete(id);
    return monitors.filter((m) => !elsewhere.has(m.id));
  };
  const change = (key: number, patch: Partial<GroupDraft>) =>
    onGroups(groups.map((g) => (g.key === key ? { ...g, ...patch } : g)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...groups];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onGroups(next);
  };
  return (
    <fieldset className="field layout-editor" data-field="groups">
      <legend>Layout</legend>
      <p className="hint">Groups come first, in this order, then the ungrouped monitors. A monitor is in one place.</p>
      <FieldIssue issue={error?.details.find((d) => d.field === 'groups')?.issue} />
      <ol className="group-list">
        {groups.map((g, i) => {
          const label = g.name.trim() || `Group ${i + 1}`;
          return (
            <li key={g.key} className="group-editor" data-field={`groups[${i}]`}>
              <div className="group-head">
                <label>
                  Group name
                  <input
                    value={g.name}
                    required
                    maxLength={100}
                    aria-invalid={error?.issueFor(`groups[${i}].name`) ? true : undefined}
                    onChange={(e) => change(g.key, { name: e.target.value })}
                  />
                </label>
                <label className="check-label">
                  <input
                    type="checkbox"
                    checked={g.collapsed}
                    onChange={(e) => change(g.key, { collapsed: e.target.checked })}
                  />{' '}
                  Folded on the page
                </label>
                <div className="group-actions">
                  <button type="button" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${label} up`}>
                    ↑ Up
                  </button>
                  <button
                    type="button"
                    disabled={i === groups.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${label} down`}
                  >
                    ↓ Down
                  </button>
                  <button
                    type="button"
                    onClick={() => onGroups(groups.filter((x) => x.key !== g.key))}
                    aria-label={`Remove ${label}`}
                  >
                    Remove
                  </button>
                </div>
              </div>
              <details className="group-monitors">
                <summary>
                  Monitors of {label} ({g.monitor_ids.length})
                </summary>
                <MonitorPickList
                  monitors={offered(g.monitor_ids)}
                  chosen={g.monitor_ids}
                  onChange={(ids) => change(g.key, { monitor_ids: ids })}
                  filterLabel={`Filter monitors of ${label}`}
                  filter={filterOf(`g${g.key}`)}
                  onFilter={setFilter(`g${g.key}`)}
                />
              </details>
              <FieldIssue issue={error?.issueFor(`groups[${i}]`)} />
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        onClick={() =>
          onGroups([
            ...groups,
            { key: nextKey++, name: `Group ${groups.length + 1}`, monitor_ids: [], collapsed: false },
          ])
        }
      >
        + Add group
      </button>
      <div className="field" data-field="monitor_ids">
        <h3 className="ungrouped-title">Ungrouped monitors ({ungrouped.length})</h3>
        <MonitorPickList
          monitors={offered(ungrouped)}
          chosen={ungrouped}
          onChange={onUngrouped}
          filterLabel="Filter"
          filter={filterOf('ungrouped')}
          onFilter={setFilter('ungrouped')}
        />
        <FieldIssue issue={error?.issueFor('monitor_ids')} />
      </div>
    </fieldset>
  );
}
