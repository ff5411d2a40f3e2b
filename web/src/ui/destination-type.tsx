import type { ReactNode } from 'react';
import { destinationGlyph, destinationTypeName, type Glyph } from '../lib/destination-types';

/** Paths on a 16×16 grid, drawn with the text colour: a shape per kind of product, no vendor logos. */
const GLYPHS: Record<Glyph, ReactNode> = {
  chat: <path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" />,
  pager: (
    <>
      <rect x="2.5" y="4.5" width="11" height="8" rx="1.5" />
      <path d="M5 7.5h6M5 10h3M6 4.5l1-2h2l1 2" />
    </>
  ),
  incident: <path d="M8 2.5l6 11H2zM8 6.5v3.5M8 11.5v.5" />,
  mail: (
    <>
      <rect x="2" y="4" width="12" height="8.5" rx="1" />
      <path d="M2.5 4.5 8 9l5.5-4.5" />
    </>
  ),
  hook: (
    <path d="M6.5 9.5a2.5 2.5 0 0 1 0-3.5l2-2a2.5 2.5 0 0 1 3.5 3.5l-1 1M9.5 6.5a2.5 2.5 0 0 1 0 3.5l-2 2a2.5 2.5 0 0 1-3.5-3.5l1-1" />
  ),
};

/** The small icon beside a type's name (decorative: the name beside it says it). */
export function DestinationIcon({ type }: { type: string | null | undefined }) {
  const glyph = destinationGlyph(type);
  return (
    <svg
      className="type-icon"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.4"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {GLYPHS[glyph]}
    </svg>
  );
}

/** Icon and product name, as lists and pickers show a type. */
export function DestinationType({ type }: { type: string | null | undefined }) {
  return (
    <span className="destination-type" data-type={type ?? 'deleted'}>
      <DestinationIcon type={type} /> {destinationTypeName(type)}
    </span>
  );
}
