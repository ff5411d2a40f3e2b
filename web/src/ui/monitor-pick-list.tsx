import type { Monitor } from '../api/monitors';

/** More boxes than this are not usable in a list: the filter finds the others. */
const LISTED = 300;

/**
 * Monitors to tick, found by name: the filter box (its text kept by the caller, so it outlives the list) and the
 * first 300 monitors whose name holds it. `onChange` gets the chosen ids after a tick; `invalid` marks every box when
 * the API refused the choice (left off when the caller has no such issue).
 */
export function MonitorPickList({
  monitors,
  chosen,
  onChange,
  filterLabel,
  filter,
  onFilter,
  invalid,
  sayLimit = false,
}: {
  monitors: Monitor[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  filterLabel: string;
  filter: string;
  onFilter: (filter: string) => void;
  invalid?: boolean;
  /** Says under the list that only the first 300 are listed, when more match. */
  sayLimit?: boolean;
}) {
  const shown = monitors.filter((m) => !filter || m.name.toLowerCase().includes(filter.toLowerCase()));
  return (
    <>
      <label>
        {filterLabel}
        <input type="search" value={filter} onChange={(e) => onFilter(e.target.value)} />
      </label>
      <div className="pick-list">
        {shown.slice(0, LISTED).map((m) => (
          <label key={m.id} className="check-label">
            <input
              type="checkbox"
              checked={chosen.includes(m.id)}
              aria-invalid={invalid}
              onChange={(e) => onChange(e.target.checked ? [...chosen, m.id] : chosen.filter((x) => x !== m.id))}
            />{' '}
            {m.name} <span className="muted small">{m.target}</span>
          </label>
        ))}
      </div>
      {sayLimit && shown.length > LISTED && <p className="hint">The first 300 are listed; type to find others.</p>}
    </>
  );
}
