import type { ReactNode } from 'react';

/** A column's heading; a secondary one is hidden on narrow screens (report-pages.css). */
export type ReportColumn = string | { label: string; secondary: true };

/** A report's table: scrolls sideways inside its box on narrow screens; `children` are its body's rows. */
export function ReportTable({
  columns,
  caption,
  testId,
  children,
}: {
  columns: ReportColumn[];
  caption?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="report-table" data-testid={testId}>
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className="secondary">
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
