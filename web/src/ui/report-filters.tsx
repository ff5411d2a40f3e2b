import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ApiError } from '../api/client';
import { useAllMonitors } from '../api/monitors';
import { browserTimeZone, timeZones } from '../lib/time-zones';
import { fromZonedInput, toZonedInput } from '../lib/zoned-time';
import { Field } from './form';
import { MonitorPickList } from './monitor-pick-list';

/** The API's period presets (docs/reports.md), in the order the pages offer them. */
export const PRESETS = {
  last_24_hours: 'Last 24 hours',
  last_7_days: 'Last 7 days',
  last_30_days: 'Last 30 days',
  last_90_days: 'Last 90 days',
  month_to_date: 'Month to date',
  previous_month: 'Previous month',
  quarter_to_date: 'Quarter to date',
  previous_quarter: 'Previous quarter',
} as const;
export type Preset = keyof typeof PRESETS;

/** The query every report route takes (and the page's URL carries under the same names). */
export interface ReportQuery {
  period?: Preset;
  from?: string;
  to?: string;
  timezone: string;
  monitor_ids?: string;
  tags?: string;
}

function isPreset(value: string | null): value is Preset {
  return value !== null && value in PRESETS;
}

/**
 * The report's query from the page's URL. A URL without a period or zone is completed once (last 30 days, the API's
 * default, in the browser's zone) so that the link in the address bar always reproduces what is shown.
 */
export function useReportQuery(): {
  query: ReportQuery;
  params: URLSearchParams;
  set: (next: URLSearchParams) => void;
} {
  const [params, setParams] = useSearchParams();
  const from = params.get('from');
  const to = params.get('to');
  const period = params.get('period');
  const custom = from !== null || to !== null;
  useEffect(() => {
    if (params.get('timezone') && (custom || isPreset(period))) return;
    const next = new URLSearchParams(params);
    if (!next.get('timezone')) next.set('timezone', browserTimeZone());
    if (!custom && !isPreset(period)) next.set('period', 'last_30_days');
    setParams(next, { replace: true });
  }, [params, setParams, custom, period]);
  const query = useMemo<ReportQuery>(() => {
    const q: ReportQuery = { timezone: params.get('timezone') || browserTimeZone() };
    if (custom) {
      // Sent as they are: the API says what is wrong with them, next to the field it names.
      if (from !== null) q.from = from;
      if (to !== null) q.to = to;
    } else {
      q.period = isPreset(period) ? period : 'last_30_days';
    }
    const monitors = params.get('monitor_ids');
    const tags = params.get('tags');
    if (monitors) q.monitor_ids = monitors;
    if (tags) q.tags = tags;
    return q;
  }, [params, custom, from, to, period]);
  return { query, params, set: (next) => setParams(next, { replace: false }) };
}

/** Presets, custom range, time zone, monitors and tags; every change goes to the URL, which drives the report. */
export function ReportFilters({
  query,
  params,
  set,
  error,
  shown,
}: ReturnType<typeof useReportQuery> & {
  error: ApiError | null;
  /** The period of the report on screen: under a preset the range inputs start from it, ready to adjust. */
  shown?: { from: string; to: string };
}) {
  const change = (edit: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(params);
    edit(next);
    set(next);
  };
  const zones = useMemo(timeZones, []);
  const zone = query.timezone;
  const [range, setRange] = useState({ from: '', to: '' });
  const from = query.from ?? shown?.from;
  const to = query.to ?? shown?.to;
  useEffect(() => {
    setRange({
      from: from && !Number.isNaN(Date.parse(from)) ? toZonedInput(from, zone) : '',
      to: to && !Number.isNaN(Date.parse(to)) ? toZonedInput(to, zone) : '',
    });
  }, [from, to, zone]);
  const custom = query.period === undefined;
  return (
    <section aria-labelledby="report-filters" className="report-filters">
      <h2 id="report-filters" className="visually-hidden">
        Period and filters
      </h2>
      <div role="group" aria-label="Period" className="segmented">
        {(Object.keys(PRESETS) as Preset[]).map((p) => (
          <button
            key={p}
            type="button"
            aria-pressed={query.period === p}
            onClick={() =>
              change((next) => {
                next.delete('from');
                next.delete('to');
                next.set('period', p);
              })
            }
          >
            {PRESETS[p]}
          </button>
        ))}
      </div>
      <form
        className="report-range"
        aria-label="Custom range"
        onSubmit={(e) => {
          e.preventDefault();
          change((next) => {
            next.delete('period');
            // A value that is not a wall time goes as typed, so that the API's refusal names the field.
            next.set('from', fromZonedInput(range.from, zone) ?? range.from);
            next.set('to', fromZonedInput(range.to, zone) ?? range.to);
          });
        }}
      >
        <Field label={`From (${zone})`} name="from" error={custom ? error : null}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="datetime-local"
              required
              value={range.from}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setRange({ ...range, from: e.target.value })}
            />
          )}
        </Field>
        <Field label={`To (${zone}, exclusive)`} name="to" error={custom ? error : null} hint="At most 400 days.">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="datetime-local"
              required
              value={range.to}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setRange({ ...range, to: e.target.value })}
            />
          )}
        </Field>
        <button type="submit" aria-pressed={custom}>
          Show range
        </button>
      </form>
      <div className="report-selects">
        <Field label="Time zone" name="timezone" error={error} hint="Days and calendar periods are taken in it.">
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              value={zone}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => change((next) => next.set('timezone', e.target.value))}
            >
              {!zones.includes(zone) && <option value={zone}>{zone}</option>}
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          )}
        </Field>
        <MonitorAndTagFilter query={query} change={change} error={error} />
      </div>
    </section>
  );
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Monitors and tags to narrow the report to; both go to the URL as the API's comma-separated lists. The monitors
 * (all of them, for the picker and the tag list) are only fetched once the picker is opened: most visits never do.
 */
function MonitorAndTagFilter({
  query,
  change,
  error,
}: {
  query: ReportQuery;
  change: (edit: (next: URLSearchParams) => void) => void;
  error: ApiError | null;
}) {
  const chosen = listOf(query.monitor_ids);
  const tags = listOf(query.tags);
  const monitorIssue = error?.issueFor('monitor_ids');
  const [open, setOpen] = useState(false);
  return (
    <div className="report-pick field" data-field="monitor_ids">
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          Monitors: {chosen.length ? `${chosen.length} chosen` : 'all'} · Tags: {tags.length ? tags.join(', ') : 'any'}
        </summary>
        {open && <MonitorAndTagPicker chosen={chosen} tags={tags} change={change} />}
      </details>
      {monitorIssue && (
        <p className="field-error" role="alert">
          {monitorIssue}
        </p>
      )}
    </div>
  );
}

function MonitorAndTagPicker({
  chosen,
  tags,
  change,
}: {
  chosen: string[];
  tags: string[];
  change: (edit: (next: URLSearchParams) => void) => void;
}) {
  const { monitors, isPending } = useAllMonitors({});
  const [filter, setFilter] = useState('');
  const allTags = useMemo(() => [...new Set(monitors.flatMap((m) => m.tags))].sort(), [monitors]);
  const write = (key: 'monitor_ids' | 'tags', updated: string[]) =>
    change((next) => {
      if (updated.length) next.set(key, updated.join(','));
      else next.delete(key);
    });
  if (isPending) return <p role="status">Loading monitors…</p>;
  return (
    <div className="report-pick-body">
      <fieldset>
        <legend>Monitors</legend>
        <MonitorPickList
          monitors={monitors}
          chosen={chosen}
          onChange={(ids) => write('monitor_ids', ids)}
          filterLabel="Find a monitor"
          filter={filter}
          onFilter={setFilter}
          sayLimit
        />
        {chosen.length > 0 && (
          <button type="button" onClick={() => change((next) => next.delete('monitor_ids'))}>
            All monitors
          </button>
        )}
      </fieldset>
      {allTags.length > 0 && (
        <fieldset>
          <legend>Tags (monitors with at least one)</legend>
          <div className="pick-list">
            {allTags.map((t) => (
              <label key={t} className="check-label">
                <input
                  type="checkbox"
                  checked={tags.includes(t)}
                  onChange={(e) => write('tags', e.target.checked ? [...tags, t] : tags.filter((x) => x !== t))}
                />{' '}
                {t}
              </label>
            ))}
          </div>
        </fieldset>
      )}
    </div>
  );
}
