import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useApi } from '../api/context';
import { useAllMonitors, type Monitor, type MonitorFilters } from '../api/monitors';
import { RowStatsBatcher, RowStatsContext, useRowStats } from '../api/row-stats';
import { can, useSession } from '../api/session';
import { lastDays } from '../lib/days';
import { percent, plural, relativeTime } from '../lib/format';
import { Sparkline, UptimeBar } from '../ui/charts';
import { StatusBadge } from '../ui/status';
import { BulkBar } from './monitors.bulk';

const STATUSES = ['down', 'pending', 'up', 'paused'] as const;
const TYPES = ['http', 'tls', 'tcp', 'dns', 'grpc', 'heartbeat'] as const;
const SORTS = { status: 'Status (down first)', name: 'Name', last_checked: 'Last check', type: 'Type' } as const;
type Sort = keyof typeof SORTS;
const STATUS_ORDER: Record<string, number> = { down: 0, pending: 1, up: 2, paused: 3 };

// One collator for every comparison: String.localeCompare builds one per call, too slow for 10,000 rows.
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

// Names compared by a key made once per monitor object (objects are kept while the list is cached).
const nameKeys = new WeakMap<Monitor, string>();
function nameKey(m: Monitor): string {
  let key = nameKeys.get(m);
  if (key === undefined) {
    key = m.name.normalize('NFKD').toLowerCase();
    nameKeys.set(m, key);
  }
  return key;
}
function byName(a: Monitor, b: Monitor): number {
  const x = nameKey(a);
  const y = nameKey(b);
  return x < y ? -1 : x > y ? 1 : collator.compare(a.name, b.name);
}

function compare(sort: Sort): (a: Monitor, b: Monitor) => number {
  switch (sort) {
    case 'name':
      return byName;
    case 'type':
      return (a, b) => collator.compare(a.type, b.type) || collator.compare(a.name, b.name);
    case 'last_checked':
      return (a, b) =>
        (b.last_checked_at ?? '') < (a.last_checked_at ?? '')
          ? -1
          : (b.last_checked_at ?? '') > (a.last_checked_at ?? '')
            ? 1
            : 0;
    case 'status':
      return (a, b) => STATUS_ORDER[a.status]! - STATUS_ORDER[b.status]! || byName(a, b);
  }
}

/** Filters, search and sort live in the URL: a view can be bookmarked and shared. */
function useListParams() {
  const [params, setParams] = useSearchParams();
  const filters: MonitorFilters = {};
  const q = params.get('q');
  if (q) filters.q = q;
  const status = params.get('status');
  if (status && (STATUSES as readonly string[]).includes(status)) filters.status = status as MonitorFilters['status'];
  const type = params.get('type');
  if (type && (TYPES as readonly string[]).includes(type)) filters.type = type as MonitorFilters['type'];
  const tag = params.get('tag');
  if (tag) filters.tag = tag;
  const environment = params.get('environment');
  if (environment) filters.environment = environment;
  const sortParam = params.get('sort');
  const sort: Sort = sortParam && sortParam in SORTS ? (sortParam as Sort) : 'status';
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  return { filters, sort, set, raw: params };
}

export default function MonitorsPage() {
  const { session } = useSession();
  const allowed = can(session.role);
  const { filters, sort, set, raw } = useListParams();
  const [search, setSearch] = useState(filters.q ?? '');
  useEffect(() => {
    const t = setTimeout(() => {
      if (search !== (filters.q ?? '')) set('q', search);
    }, 300);
    return () => clearTimeout(t);
  });
  const list = useAllMonitors(filters);
  // The visible rows' bars and sparklines: one batch of requests per screenful, not two requests per row.
  const api = useApi();
  const [rowStats] = useState(() => new RowStatsBatcher(api));
  const sorted = useMemo(() => [...list.monitors].sort(compare(sort)), [list.monitors, sort]);
  const names = useMemo(() => new Map(list.monitors.map((m) => [m.id, m.name])), [list.monitors]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const selectedMonitors = useMemo(() => sorted.filter((m) => selected.has(m.id)), [sorted, selected]);
  const allSelected = sorted.length > 0 && selectedMonitors.length === sorted.length;
  const toggle = useCallback((id: string) => {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  return (
    <RowStatsContext value={rowStats}>
      <div className="page-head">
        <h1>Monitors</h1>
        {allowed.write && (
          <div className="actions">
            <Link className="button" to="/imports">
              Import
            </Link>
            <Link className="button primary" to="/monitors/new">
              New monitor
            </Link>
          </div>
        )}
      </div>
      <form className="filters" role="search" aria-label="Filter monitors" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input
            type="search"
            value={search}
            placeholder="name or target"
            onChange={(e) => setSearch(e.target.value)}
          />
        </label>
        <label>
          Status
          <select value={filters.status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select value={filters.type ?? ''} onChange={(e) => set('type', e.target.value)}>
            <option value="">Any</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tag
          <input value={raw.get('tag') ?? ''} onChange={(e) => set('tag', e.target.value)} size={10} />
        </label>
        <label>
          Environment
          <input value={raw.get('environment') ?? ''} onChange={(e) => set('environment', e.target.value)} size={10} />
        </label>
        <label>
          Sort
          <select value={sort} onChange={(e) => set('sort', e.target.value === 'status' ? '' : e.target.value)}>
            {Object.entries(SORTS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <p className="muted" role="status" aria-live="polite">
        {list.isPending
          ? 'Loading monitors…'
          : `${plural(sorted.length, 'monitor')}${list.complete ? '' : ' so far, loading the rest…'}`}
      </p>
      {list.isError && (
        <p role="alert" className="form-error">
          {list.error.message}
        </p>
      )}
      {allowed.write && selected.size > 0 && (
        <BulkBar selected={selectedMonitors} canDelete={allowed.write} onDone={() => setSelected(new Set())} />
      )}
      {!list.isPending && sorted.length === 0 && !list.isError && (
        <p>
          No monitors{Object.keys(filters).length ? ' match these filters' : ' yet'}.{' '}
          {allowed.write && <Link to="/monitors/new">Create one with just a URL.</Link>}
        </p>
      )}
      {sorted.length > 0 && (
        <MonitorTable
          monitors={sorted}
          names={names}
          selectable={allowed.write}
          selected={selected}
          allSelected={allSelected}
          onToggle={toggle}
          onToggleAll={() => setSelected(allSelected ? new Set() : new Set(sorted.map((m) => m.id)))}
        />
      )}
    </RowStatsContext>
  );
}

const ROW_HEIGHT = 52;

/** "blocked by Router, Core switch" (DECISIONS §17): the parents that hold a down monitor's alerts back. */
function blockedByText(m: Monitor, names: ReadonlyMap<string, string>): string | null {
  const ids = m.blocked_by ?? [];
  if (ids.length === 0) return null;
  return `blocked by ${ids.map((id) => names.get(id) ?? id).join(', ')}`;
}

function MonitorTable(props: {
  monitors: Monitor[];
  /** Names of the loaded monitors, for the parents a row is blocked by. */
  names: ReadonlyMap<string, string>;
  selectable: boolean;
  selected: Set<string>;
  allSelected: boolean;
  onToggle: (id: string) => void;
  onToggleAll: () => void;
}) {
  const [offset, setOffset] = useState(0);
  const [body, setBody] = useState<HTMLTableSectionElement | null>(null);
  useEffect(() => {
    if (body) setOffset(body.getBoundingClientRect().top + window.scrollY);
  }, [body]);
  // Only the rows near the viewport are in the DOM (10,000 monitors stay smooth).
  const virtualizer = useWindowVirtualizer({
    count: props.monitors.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: offset,
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0]!.start - offset : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - offset) : 0;
  return (
    <div className="table-wrap">
      <table className="monitors" aria-rowcount={props.monitors.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {props.selectable && (
              <th scope="col" className="check">
                <input
                  type="checkbox"
                  aria-label="Select all monitors"
                  checked={props.allSelected}
                  onChange={props.onToggleAll}
                />
              </th>
            )}
            <th scope="col" className="col-status">
              Status
            </th>
            <th scope="col" className="col-name">
              Monitor
            </th>
            <th scope="col" className="hide-narrow">
              Tags
            </th>
            <th scope="col" className="col-bar">
              90 days
            </th>
            <th scope="col" className="col-uptime">
              24 h
            </th>
            <th scope="col" className="hide-narrow col-p95">
              p95 (24 h)
            </th>
            <th scope="col" className="hide-narrow">
              Last check
            </th>
          </tr>
        </thead>
        <tbody ref={setBody}>
          {before > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td style={{ height: before }} />
            </tr>
          )}
          {items.map((item) => (
            <MonitorRow
              key={props.monitors[item.index]!.id}
              index={item.index}
              monitor={props.monitors[item.index]!}
              blockedBy={blockedByText(props.monitors[item.index]!, props.names)}
              selectable={props.selectable}
              selected={props.selected.has(props.monitors[item.index]!.id)}
              onToggle={props.onToggle}
              scrolling={virtualizer.isScrolling}
            />
          ))}
          {after > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td style={{ height: after }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

// Scrolling mounts only the rows coming into view: the others keep their props and are not rendered again.
const MonitorRow = memo(function MonitorRow(props: {
  index: number;
  monitor: Monitor;
  /** "blocked by …" while a parent holds its alerts back; null otherwise. */
  blockedBy: string | null;
  selectable: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
  scrolling: boolean;
}) {
  const m = props.monitor;
  // Rows only flying past while scrolling fetch nothing: the history is asked for once scrolling has stopped and
  // the row has been on screen for 250 ms.
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSettled(true), 250);
    return () => clearTimeout(t);
  }, []);
  const stats = useRowStats(m.id, settled && !props.scrolling);
  const days = stats.data ? lastDays(stats.data.daily, 90) : [];
  const withData = days.filter((d) => d.uptime !== null);
  const p95 = stats.data?.hourly.map((b) => b.p95_ms) ?? [];
  const lastP95 = [...p95].reverse().find((v) => v !== null);
  return (
    <tr aria-rowindex={props.index + 2} style={{ height: ROW_HEIGHT }}>
      {props.selectable && (
        <td className="check">
          <input
            type="checkbox"
            aria-label={`Select ${m.name}`}
            checked={props.selected}
            onChange={() => props.onToggle(m.id)}
          />
        </td>
      )}
      <td>
        <StatusBadge status={m.status} />
        {props.blockedBy && (
          <span className="muted small blocked-by" title="Its alerts wait until these recover (docs/dependencies.md)">
            {props.blockedBy}
          </span>
        )}
      </td>
      <td className="name-cell">
        <Link to={`/monitors/${m.id}`}>{m.name}</Link>
        <span className="muted small">
          {m.type} · {m.environment} · <span className="target">{m.target}</span>
        </span>
      </td>
      <td className="hide-narrow">
        {m.tags.map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
      </td>
      <td className="bar-cell">
        {stats.data ? (
          <UptimeBar
            days={days}
            label={`Last 90 days: ${plural(withData.length, 'day')} with checks, ${
              withData.filter((d) => (d.uptime ?? 100) < 99.9).length
            } below 99.9 %`}
          />
        ) : (
          <span className="muted">…</span>
        )}
      </td>
      <td>{stats.data ? percent(stats.data.uptime24h) : '…'}</td>
      <td className="hide-narrow">
        {stats.data && (
          <Sparkline
            values={p95}
            label={
              lastP95 === undefined ? 'No latency in the last 24 h' : `p95 latency, latest ${Math.round(lastP95)} ms`
            }
          />
        )}
      </td>
      <td className="hide-narrow">
        <time dateTime={m.last_checked_at ?? undefined}>{relativeTime(m.last_checked_at)}</time>
      </td>
    </tr>
  );
});
