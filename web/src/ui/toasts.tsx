import { createContext, use, useEffect, useSyncExternalStore } from 'react';

/**
 * Short notes that an action completed ("Monitor paused."), read out by screen readers through a polite live
 * region that is always in the page (a region added together with its text is not announced). A mutation asks
 * for one with `meta: { toast }`; main.tsx's MutationCache passes it here, so pages need no wiring.
 */
export interface Toast {
  id: number;
  text: string;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { toast?: string | ((data: unknown) => string | null) };
  }
}

/** How long a note stays on screen (long enough to read a sentence twice). */
const SHOW_MS = 6000;

export class ToastStore {
  private list: Toast[] = [];
  private next = 1;
  private readonly listeners = new Set<() => void>();

  show(text: string): void {
    this.list = [...this.list.slice(-2), { id: this.next++, text }];
    this.emit();
  }

  dismiss(id: number): void {
    this.list = this.list.filter((t) => t.id !== id);
    this.emit();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): Toast[] => this.list;

  private emit(): void {
    for (const l of this.listeners) l();
  }
}

export const ToastContext = createContext<ToastStore | null>(null);

/** Shows a note from a component (for actions that are not mutations). */
export function useToast(): (text: string) => void {
  const store = use(ToastContext);
  return (text) => store?.show(text);
}

function ToastItem({ toast, store }: { toast: Toast; store: ToastStore }) {
  useEffect(() => {
    const timer = setTimeout(() => store.dismiss(toast.id), SHOW_MS);
    return () => clearTimeout(timer);
  }, [store, toast.id]);
  return (
    <li className="toast" data-testid="toast">
      <span>{toast.text}</span>
      <button type="button" className="ghost" aria-label="Dismiss" onClick={() => store.dismiss(toast.id)}>
        ×
      </button>
    </li>
  );
}

/** The live region and its notes; rendered once by the signed-in layout. */
export function Toaster() {
  const store = use(ToastContext);
  const toasts = useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.snapshot ?? none);
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      <ul className="plain">{store && toasts.map((t) => <ToastItem key={t.id} toast={t} store={store} />)}</ul>
    </div>
  );
}

const empty: Toast[] = [];
const none = () => empty;
const noSubscribe = () => () => undefined;
