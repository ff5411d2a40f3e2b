/**
 * The shared pieces of the visual system (tokens.css): a page header, cards, stat tiles, collapsible sections,
 * capped lists and empty states. Pages compose these rather than hand-writing the same markup and classes.
 */
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

/** The states the tokens colour (tokens.css --state-*). */
export type Tone = 'up' | 'down' | 'degraded' | 'paused' | 'maintenance' | 'pending' | 'neutral';

/** A page's one h1 with its actions (right-aligned; below the title on a phone) and an optional lead line. */
export function PageHeader(props: { title: ReactNode; actions?: ReactNode; lead?: ReactNode }) {
  return (
    <div className="page-head">
      <h1>{props.title}</h1>
      {props.actions && <div className="actions">{props.actions}</div>}
      {props.lead && <p className="page-lead">{props.lead}</p>}
    </div>
  );
}

/** A bordered surface; with `title`, a section labelled by its heading. */
export function Card(props: { title?: ReactNode; className?: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  if (props.title === undefined) return <div className={`card ${props.className ?? ''}`}>{props.children}</div>;
  return (
    <section className={`card ${props.className ?? ''}`} aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/**
 * A figure with its label, coloured by the state it counts. With `to` the whole tile is a link (the list filtered
 * to that state); the link's name is the figure and the label together ("1 Down").
 */
export function Stat(props: {
  label: string;
  value: ReactNode;
  tone?: Tone;
  icon?: string;
  to?: string;
  hint?: ReactNode;
  testId?: string;
}) {
  const tone = props.tone ?? 'neutral';
  const body = (
    <>
      <span className="stat-label">
        {props.icon && <span aria-hidden="true">{props.icon} </span>}
        {props.label}
      </span>
      <span className="stat-value">{props.value}</span>
      {props.hint && <span className="stat-hint">{props.hint}</span>}
    </>
  );
  const className = `card stat tone-${tone}`;
  return props.to ? (
    <Link to={props.to} className={className} data-stat={props.testId}>
      {body}
    </Link>
  ) : (
    <div className={className} data-stat={props.testId}>
      {body}
    </div>
  );
}

/**
 * A section whose heading is a button that folds it (aria-expanded, aria-controls: the WAI-ARIA disclosure
 * pattern), with a count beside the title; folded content is not rendered.
 */
export function CollapsibleSection(props: {
  title: string;
  count?: number;
  tone?: Tone;
  icon?: string;
  defaultOpen?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  const [open, setOpen] = useState(props.defaultOpen ?? true);
  const id = useId();
  return (
    <section
      className={`collapsible tone-${props.tone ?? 'neutral'}`}
      aria-labelledby={`${id}-h`}
      data-group={props.testId}
    >
      <h3 id={`${id}-h`} className="collapsible-head">
        <button type="button" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen(!open)}>
          <span className="chevron" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {props.icon && <span aria-hidden="true">{props.icon}</span>}
          <span className="collapsible-title">{props.title}</span>
          {props.count !== undefined && <span className="count">{props.count}</span>}
        </button>
      </h3>
      <div id={`${id}-body`} className="collapsible-body" hidden={!open}>
        {open && props.children}
      </div>
    </section>
  );
}

/** The first `cap` items, then a "Show all N" button (and "Show fewer" once all are shown). */
export function CappedList<T>(props: {
  items: T[];
  cap: number;
  label: string;
  itemKey: (item: T) => string;
  render: (item: T) => ReactNode;
  /** How many there are in all when `items` holds only the first of them; "Show all" then goes to `allTo`. */
  total?: number;
  allTo?: string;
}) {
  const [all, setAll] = useState(false);
  const total = props.total ?? props.items.length;
  if (props.allTo && total > props.items.length) {
    return (
      <>
        <ul className="item-list">
          {props.items.slice(0, props.cap).map((item) => (
            <li key={props.itemKey(item)}>{props.render(item)}</li>
          ))}
        </ul>
        <Link className="link-button" to={props.allTo}>
          {`Show all ${total} ${props.label}`}
        </Link>
      </>
    );
  }
  const shown = all ? props.items : props.items.slice(0, props.cap);
  return (
    <>
      <ul className="item-list">
        {shown.map((item) => (
          <li key={props.itemKey(item)}>{props.render(item)}</li>
        ))}
      </ul>
      {props.items.length > props.cap && (
        <button type="button" className="link-button" onClick={() => setAll(!all)}>
          {all ? `Show fewer ${props.label}` : `Show all ${props.items.length} ${props.label}`}
        </button>
      )}
    </>
  );
}

/** What a page or panel says when it has nothing to show, with what to do next. */
export function EmptyState(props: { icon?: string; title: string; children?: ReactNode; tone?: Tone }) {
  return (
    <div className={`empty-state tone-${props.tone ?? 'neutral'}`}>
      {props.icon && (
        <span className="empty-icon" aria-hidden="true">
          {props.icon}
        </span>
      )}
      <p className="empty-title">{props.title}</p>
      {props.children && <div className="empty-body">{props.children}</div>}
    </div>
  );
}

/** A query's error as an alert with a retry button. */
export function ErrorState(props: { message: string; onRetry?: () => void }) {
  return (
    <div className="error-state" role="alert">
      <p>
        <span aria-hidden="true">⚠ </span>
        {props.message}
      </p>
      {props.onRetry && (
        <button type="button" onClick={props.onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
