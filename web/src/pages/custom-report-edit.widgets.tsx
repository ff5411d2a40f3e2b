import { useEffect, useState } from 'react';
import type { ApiError } from '../api/client';
import type { Monitor } from '../api/monitors';
import { Field, FieldIssue } from '../ui/form';
import { MonitorPickList } from '../ui/monitor-pick-list';
import { kindLabel, WIDGET_KINDS, type WidgetKind } from '../lib/custom-report.kinds';
import { newDraft, type WidgetDraft } from './custom-report-edit.drafts';

/**
 * The widgets of the report, in order: each with its kind, title and monitors or tags, moved with buttons (focus
 * follows the widget moved, and the move is announced) and removed; new ones are added at the end.
 */
export function WidgetsEditor(props: {
  widgets: WidgetDraft[];
  onChange: (next: WidgetDraft[]) => void;
  monitors: Monitor[];
  slaTargets: { id: string; name: string }[];
  error: ApiError | null;
}) {
  const { widgets, onChange, error } = props;
  const [addKind, setAddKind] = useState<WidgetKind>('availability');
  const [announcement, setAnnouncement] = useState('');
  const [focus, setFocus] = useState<{ key: string; control: string } | null>(null);
  useEffect(() => {
    if (!focus) return;
    const root = document.querySelector(`[data-widget-key="${focus.key}"]`);
    const target =
      root?.querySelector<HTMLElement>(`[data-control="${focus.control}"]:not(:disabled)`) ??
      root?.querySelector<HTMLElement>('[data-control]:not(:disabled)');
    target?.focus();
    setFocus(null);
  }, [focus]);
  const update = (i: number, patch: Partial<WidgetDraft>) =>
    onChange(widgets.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...widgets];
    const [w] = next.splice(i, 1);
    next.splice(i + by, 0, w!);
    onChange(next);
    setAnnouncement(`“${w!.title}” moved to position ${i + by + 1} of ${next.length}.`);
    setFocus({ key: w!.key, control: by < 0 ? 'up' : 'down' });
  };
  const remove = (i: number) => {
    const w = widgets[i]!;
    const next = widgets.filter((_, j) => j !== i);
    onChange(next);
    setAnnouncement(`“${w.title}” removed.`);
    const neighbour = next[Math.min(i, next.length - 1)];
    if (neighbour) setFocus({ key: neighbour.key, control: 'remove' });
  };
  const widgetsIssue = error?.details.find((d) => d.field === 'widgets')?.issue;
  return (
    <fieldset className="widgets" data-field="widgets">
      <legend>Widgets ({widgets.length})</legend>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {widgetsIssue && (
        <p className="field-error" role="alert">
          {widgetsIssue}
        </p>
      )}
      <ol className="widget-list">
        {widgets.map((w, i) => (
          <li key={w.key} data-widget-key={w.key} className="widget card">
            <WidgetFields
              index={i}
              widget={w}
              monitors={props.monitors}
              slaTargets={props.slaTargets}
              error={error}
              onChange={(patch) => update(i, patch)}
            />
            <div className="actions">
              <button
                type="button"
                data-control="up"
                disabled={i === 0}
                aria-label={`Move “${w.title}” up`}
                onClick={() => move(i, -1)}
              >
                ↑ Up
              </button>
              <button
                type="button"
                data-control="down"
                disabled={i === widgets.length - 1}
                aria-label={`Move “${w.title}” down`}
                onClick={() => move(i, 1)}
              >
                ↓ Down
              </button>
              <button
                type="button"
                className="danger"
                data-control="remove"
                aria-label={`Remove “${w.title}”`}
                onClick={() => remove(i)}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ol>
      <div className="add-widget">
        <label>
          Kind of the new widget
          <select value={addKind} onChange={(e) => setAddKind(e.target.value as WidgetKind)}>
            {WIDGET_KINDS.map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => {
            const added = newDraft(
              addKind,
              widgets.map((w) => w.title),
            );
            onChange([...widgets, added]);
            setAnnouncement(`“${added.title}” added as widget ${widgets.length + 1}.`);
          }}
        >
          Add widget
        </button>
      </div>
    </fieldset>
  );
}

function WidgetFields(props: {
  index: number;
  widget: WidgetDraft;
  monitors: Monitor[];
  slaTargets: { id: string; name: string }[];
  error: ApiError | null;
  onChange: (patch: Partial<WidgetDraft>) => void;
}) {
  const { index: i, widget: w, error, onChange } = props;
  const [filter, setFilter] = useState('');
  const path = `widgets[${i}]`;
  const monitorsIssue = error?.issueFor(`${path}.monitor_ids`);
  const targetsIssue = error?.issueFor(`${path}.options`);
  return (
    <fieldset className="widget-fields">
      <legend>
        Widget {i + 1}: {w.title || kindLabel(w.kind)}
      </legend>
      <div className="row">
        <Field label="Kind" name={`${path}.kind`} error={error}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              value={w.kind}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => onChange({ kind: e.target.value as WidgetKind })}
            >
              {WIDGET_KINDS.map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Title" name={`${path}.title`} error={error} required>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              required
              value={w.title}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => onChange({ title: e.target.value })}
            />
          )}
        </Field>
      </div>
      <fieldset className="segmented-choice">
        <legend>Monitors covered</legend>
        {(
          [
            ['all', 'Every monitor'],
            ['monitors', 'Chosen monitors'],
            ['tags', 'Monitors with tags'],
          ] as const
        ).map(([scope, label]) => (
          <label key={scope} className="check-label">
            <input
              type="radio"
              name={`${w.key}-scope`}
              checked={w.scope === scope}
              onChange={() => onChange({ scope })}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {w.scope === 'monitors' && (
        <fieldset className={`field${monitorsIssue ? ' field-invalid' : ''}`} data-field={`${path}.monitor_ids`}>
          <legend>Monitors ({w.monitorIds.length})</legend>
          <MonitorPickList
            monitors={props.monitors}
            chosen={w.monitorIds}
            onChange={(monitorIds) => onChange({ monitorIds })}
            filterLabel="Filter monitors"
            filter={filter}
            onFilter={setFilter}
            invalid={Boolean(monitorsIssue)}
          />
          <FieldIssue issue={monitorsIssue} />
        </fieldset>
      )}
      {w.scope === 'tags' && (
        <Field label="Tags" name={`${path}.tags`} error={error} hint="Comma-separated; monitors with at least one.">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              value={w.tags}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => onChange({ tags: e.target.value })}
            />
          )}
        </Field>
      )}
      {w.kind === 'sla' && (
        <fieldset className={`field${targetsIssue ? ' field-invalid' : ''}`} data-field={`${path}.options`}>
          <legend>SLA targets shown (none chosen: every target)</legend>
          {props.slaTargets.length === 0 && <p className="muted small">No SLA targets yet.</p>}
          <div className="pick-list">
            {props.slaTargets.map((t) => (
              <label key={t.id} className="check-label">
                <input
                  type="checkbox"
                  checked={w.slaTargetIds.includes(t.id)}
                  onChange={(e) =>
                    onChange({
                      slaTargetIds: e.target.checked
                        ? [...w.slaTargetIds, t.id]
                        : w.slaTargetIds.filter((x) => x !== t.id),
                    })
                  }
                />{' '}
                {t.name}
              </label>
            ))}
          </div>
          <FieldIssue issue={targetsIssue} />
        </fieldset>
      )}
    </fieldset>
  );
}
