import { isDowngrade } from './domain.grade.ts';
import type { Finding } from './intelligence.types.ts';

export type GradeKind = 'tls' | 'domain';

/** JSON-safe: the last grade of one kind, and the grade it dropped from while a drop is open. */
export interface GradeTrack {
  grade: string | null;
  droppedFrom: string | null;
}

export function newGradeTrack(): GradeTrack {
  return { grade: null, droppedFrom: null };
}

const FAILING = new Set(['F', 'T', 'M']);

/**
 * A new grade of one kind: a drop raises security_grade_downgraded (and opens until recovery); getting back
 * to the grade before the drop (or better) raises security_grade_recovered. The first grade only sets the level.
 */
export function observeGrade(
  track: GradeTrack,
  kind: GradeKind,
  at: number,
  grade: string,
  reasons: readonly string[],
): Finding[] {
  const previous = track.grade;
  track.grade = grade;
  if (previous === null || previous === grade) return [];
  const label = kind === 'tls' ? 'TLS grade' : 'Domain security grade';
  const key = `grade:${kind}`;
  if (isDowngrade(previous, grade)) {
    const first = track.droppedFrom === null;
    if (first) track.droppedFrom = previous;
    return [
      {
        kind: 'security_grade_downgraded',
        category: 'security',
        severity: FAILING.has(grade) ? 'critical' : 'warning',
        summary: `${label} dropped from ${previous} to ${grade}: ${reasons.join('; ')}.`,
        before: { grade_kind: kind, grade: previous },
        after: { grade_kind: kind, grade, reasons: [...reasons] },
        at,
        ...(first ? { opens: key } : {}),
      },
    ];
  }
  if (track.droppedFrom !== null && !isDowngrade(track.droppedFrom, grade)) {
    const from = track.droppedFrom;
    track.droppedFrom = null;
    return [
      {
        kind: 'security_grade_recovered',
        category: 'security',
        severity: 'info',
        summary: `${label} recovered from ${previous} to ${grade} (it was ${from} before the drop).`,
        before: { grade_kind: kind, grade: previous },
        after: { grade_kind: kind, grade, reasons: [...reasons] },
        at,
        closes: key,
      },
    ];
  }
  return [];
}
