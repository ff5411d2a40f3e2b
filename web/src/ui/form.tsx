import { useEffect, useId, type ReactNode, type RefObject } from 'react';
import { ApiError } from '../api/client';

/** The control's side of a Field: `control` is the three attributes most controls take, to spread onto them. */
export interface FieldIds {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
  control: { id: string; 'aria-describedby': string | undefined; 'aria-invalid': boolean };
}

/** A labelled control with its hint and the API's issue for it (announced and tied by aria-describedby). */
export function Field(props: {
  label: string;
  name: string;
  error?: ApiError | null;
  required?: boolean;
  hint?: string;
  children: (ids: FieldIds) => ReactNode;
}) {
  const id = useId();
  const issue = props.error?.issueFor(props.name);
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = issue ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${issue ? ' field-invalid' : ''}`} data-field={props.name}>
      <label htmlFor={id}>
        {props.label}
        {props.required && (
          <span className="required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {props.children({
        id,
        describedBy,
        invalid: Boolean(issue),
        control: { id, 'aria-describedby': describedBy, 'aria-invalid': Boolean(issue) },
      })}
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

/** The API's issue under a group of controls that is not one Field (a fieldset of checkboxes), announced. */
export function FieldIssue({ issue }: { issue: string | undefined }) {
  if (!issue) return null;
  return (
    <p className="field-error" role="alert">
      {issue}
    </p>
  );
}

/** The envelope's message above a form, with the issues no field on the form names. */
export function FormError({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  if (!(error instanceof ApiError)) {
    return (
      <div className="form-error" role="alert">
        {error instanceof Error ? error.message : 'Something went wrong.'}
      </div>
    );
  }
  const unplaced = error.details.filter((d) => !fields.some((f) => d.field === f || d.field.startsWith(`${f}.`)));
  // A refusal that is all about fields shown on the form, whose message is one of their issues (a plan limit on
  // interval_seconds or region_codes): it is said next to the field, not twice.
  if (unplaced.length === 0 && error.details.some((d) => d.issue === error.message)) return null;
  return (
    <div className="form-error" role="alert" data-code={error.code}>
      <p>{error.message}</p>
      {unplaced.length > 0 && (
        <ul>
          {unplaced.map((d) => (
            <li key={`${d.field}:${d.issue}`}>
              <code>{d.field}</code>: {d.issue}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * After a refusal has been drawn, moves focus to the first field the API named (or to the message above the form),
 * so keyboard and screen-reader users land on it.
 */
export function useFocusFirstInvalid(form: RefObject<HTMLFormElement | null>, error: unknown): void {
  useEffect(() => {
    if (!error || !form.current) return;
    const first =
      form.current.querySelector<HTMLElement>(
        '.field-invalid input, .field-invalid select, .field-invalid textarea, .field-invalid button',
      ) ?? form.current.querySelector<HTMLElement>('.form-error');
    if (first && !first.matches('input, select, textarea, button')) first.tabIndex = -1;
    first?.focus();
  }, [form, error]);
}
