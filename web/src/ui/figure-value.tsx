import './figure-value.css';
import type { ReactNode } from 'react';

/**
 * A figure with units ("748 d 14 h 23 min", "99.982 %") as pieces that each stay whole ("748 d", "14 h"), so a card
 * too narrow for the whole figure wraps it between units instead of letting it run out of the card. The text is
 * unchanged (what tests and screen readers read).
 */
export function wrapUnits(value: string): ReactNode {
  const tokens = value.split(' ');
  if (tokens.length <= 2) return <span className="unit-group">{value}</span>;
  const groups: string[] = [];
  for (const t of tokens) {
    const last = groups.length - 1;
    // A unit (a token without digits) joins the number before it.
    if (last >= 0 && !/\d/.test(t) && /\d$/.test(groups[last]!)) groups[last] = `${groups[last]} ${t}`;
    else groups.push(t);
  }
  return groups.map((g, i) => (
    <span key={i} className="unit-group">
      {g}
      {i < groups.length - 1 ? ' ' : ''}
    </span>
  ));
}
