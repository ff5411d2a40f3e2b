import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactElement, ReactNode, RefObject } from 'react';
import { ApiError } from '../api/client';
import NotFoundPage from '../pages/not-found.page';

/**
 * Until the saved item is there, what the page shows instead of its form: "not found" for a 404, the error, or
 * loading (null once the form can be drawn, and at once for a new item).
 */
export function loadingOrError(id: string | undefined, existing: UseQueryResult<unknown>): ReactElement | null {
  if (existing.error instanceof ApiError && existing.error.status === 404) return <NotFoundPage />;
  if (existing.isError) return <p role="alert">{existing.error.message}</p>;
  if (id && !existing.data) return <p role="status">Loading…</p>;
  return null;
}

/**
 * The editor's form: submitting saves (never a page load). `locked` (a role that may only read) disables every control
 * in one fieldset; without it there is no fieldset.
 */
export function EditForm({
  form,
  onSubmit,
  locked,
  className,
  noValidate,
  children,
}: {
  form: RefObject<HTMLFormElement | null>;
  onSubmit: () => void;
  locked?: boolean;
  className?: string;
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      ref={form}
      className={className}
      noValidate={noValidate}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {locked === undefined ? children : <fieldset disabled={locked}>{children}</fieldset>}
    </form>
  );
}

/** The row under the form: the save button (off while a save is under way) and the page's other actions. */
export function SaveBar({ pending, label, children }: { pending: boolean; label: ReactNode; children?: ReactNode }) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={pending}>
        {label}
      </button>
      {children}
    </div>
  );
}

/** Delete, after the browser's confirmation with `question`. */
export function DeleteButton({
  question,
  onConfirmed,
  disabled,
}: {
  question: string;
  onConfirmed: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className="danger"
      disabled={disabled}
      onClick={() => {
        if (window.confirm(question)) onConfirmed();
      }}
    >
      Delete
    </button>
  );
}
