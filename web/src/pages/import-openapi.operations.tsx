import type { ApiError } from '../api/client';
import type { components } from '../api/schema';

export type ParsedOperation = components['schemas']['ParsedOperation'];

/**
 * The API's issues about one operation: `operations[i].monitor.<field>` (i = its place in the list sent) and
 * `operation_ids[j]` (j = its place among the chosen ids), as "field: issue" lines.
 */
export function issuesOfRow(error: ApiError | null, index: number, chosenIds: string[], id: string): string[] {
  if (!error) return [];
  const j = chosenIds.indexOf(id);
  return error.details
    .filter((d) => d.field.startsWith(`operations[${index}]`) || (j >= 0 && d.field === `operation_ids[${j}]`))
    .map((d) => {
      const field = d.field.replace(/^operations\[\d+\]\.monitor\./, '').replace(/^operation_ids\[\d+\]/, 'operation');
      return `${field}: ${d.issue}`;
    });
}

/** Every operation of the description with its warnings; a checkbox per row chooses it. */
export function OperationsTable(props: {
  operations: ParsedOperation[];
  chosen: Set<string>;
  onToggle: (id: string, on: boolean) => void;
  error: ApiError | null;
  chosenIds: string[];
}) {
  return (
    <div className="table-wrap">
      <table className="operations">
        <thead>
          <tr>
            <th scope="col">Create</th>
            <th scope="col">Operation</th>
            <th scope="col">Warnings</th>
          </tr>
        </thead>
        <tbody>
          {props.operations.map((op, i) => {
            const issues = issuesOfRow(props.error, i, props.chosenIds, op.operation_id);
            const boxId = `op-${i}`;
            return (
              <tr key={op.operation_id} data-operation={op.operation_id}>
                <td className={issues.length ? 'field-invalid' : undefined}>
                  <input
                    id={boxId}
                    type="checkbox"
                    checked={props.chosen.has(op.operation_id)}
                    aria-invalid={issues.length > 0}
                    aria-describedby={issues.length ? `${boxId}-issues` : undefined}
                    onChange={(e) => props.onToggle(op.operation_id, e.target.checked)}
                  />
                </td>
                <td>
                  <label htmlFor={boxId}>
                    <strong>{op.method.toUpperCase()}</strong> <code>{op.path}</code>
                  </label>
                  <br />
                  <span className="target small">{op.monitor.target}</span>
                  <br />
                  <span className="muted small">
                    {op.operation_id}
                    {op.summary ? ` · ${op.summary}` : ''}
                  </span>
                  {issues.length > 0 && (
                    <ul className="field-error" id={`${boxId}-issues`} role="alert">
                      {issues.map((issue) => (
                        <li key={issue}>{issue}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {op.warnings.length === 0 ? (
                    <span className="muted">
                      <span aria-hidden="true">✓</span> None
                    </span>
                  ) : (
                    <ul className="warnings">
                      {op.warnings.map((w) => (
                        <li key={w}>
                          <span aria-hidden="true">⚠</span> {w}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
