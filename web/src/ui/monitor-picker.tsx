import { useId, useState, type KeyboardEvent } from 'react';
import type { ApiError } from '../api/client';
import { useAllMonitors, type Monitor } from '../api/monitors';

/** Matches offered under the search box: enough to choose from, few enough to read. */
const OFFERED = 12;

/**
 * Several monitors chosen by name (DECISIONS §17's `depends_on`): the chosen ones as chips (name and target, so two
 * monitors with the same name are told apart; × removes one), a search box over names and targets whose matches are
 * offered as a listbox (click, or arrows and Enter), and the API's issue for `name` (a cycle, a foreign id) under it.
 * `exclude` is left out of the offers (the monitor being edited cannot depend on itself).
 */
export function MonitorPicker(props: {
  label: string;
  name: string;
  value: string[];
  onChange: (ids: string[]) => void;
  error: ApiError | null;
  exclude?: string;
  hint?: string;
}) {
  const id = useId();
  const { monitors, isLoading } = useAllMonitors({});
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const byId = new Map(monitors.map((m) => [m.id, m]));
  const needle = query.trim().toLowerCase();
  const offers = needle
    ? monitors
        .filter((m) => m.id !== props.exclude && !props.value.includes(m.id))
        .filter((m) => m.name.toLowerCase().includes(needle) || m.target.toLowerCase().includes(needle))
        .slice(0, OFFERED)
    : [];
  const issue = props.error?.issueFor(props.name);
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = issue ? `${id}-error` : undefined;
  const listId = `${id}-offers`;
  const add = (m: Monitor) => {
    props.onChange([...props.value, m.id]);
    setQuery('');
    setActive(0);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (offers.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : offers.length - 1)) % offers.length);
    } else if (e.key === 'Enter') {
      e.preventDefault(); // choosing, not submitting the form
      add(offers[Math.min(active, offers.length - 1)]!);
    } else if (e.key === 'Escape') setQuery('');
  };
  return (
    <div className={`field monitor-picker${issue ? ' field-invalid' : ''}`} data-field={props.name}>
      <label htmlFor={id}>{props.label}</label>
      {props.value.length > 0 && (
        <ul className="chips" aria-label={`${props.label}: chosen`}>
          {props.value.map((mid) => {
            const m = byId.get(mid);
            return (
              <li key={mid} className="chip">
                <span className="chip-name">{m ? m.name : mid}</span>
                {m && <span className="chip-target muted">{m.target}</span>}
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={`Remove ${m ? m.name : mid}`}
                  onClick={() => props.onChange(props.value.filter((x) => x !== mid))}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <input
        id={id}
        type="search"
        role="combobox"
        autoComplete="off"
        placeholder={isLoading ? 'Loading monitors…' : 'Type a name or target'}
        aria-expanded={offers.length > 0}
        aria-controls={listId}
        aria-activedescendant={offers.length > 0 ? `${listId}-${Math.min(active, offers.length - 1)}` : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        aria-invalid={Boolean(issue)}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
      />
      <ul
        id={listId}
        role="listbox"
        className="picker-offers"
        aria-label="Matching monitors"
        hidden={offers.length === 0}
      >
        {offers.map((m, i) => (
          <li
            key={m.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === Math.min(active, offers.length - 1)}
            onMouseDown={(e) => e.preventDefault()} // keeps the focus in the search box
            onClick={() => add(m)}
          >
            <span className="chip-name">{m.name}</span> <span className="chip-target muted">{m.target}</span>
          </li>
        ))}
      </ul>
      {needle && offers.length === 0 && !isLoading && <p className="hint">No other monitor matches “{query}”.</p>}
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {issue && (
        <p className="field-error" id={errorId} role="alert">
          {issue}
        </p>
      )}
    </div>
  );
}
