import type { ApiError } from '../api/client';

export interface AssertionDraft {
  type: string;
  name: string;
  path: string;
  operator: string;
  value: string;
}

/** Which operators each assertion type takes (the Assertion schema's description). */
const OPERATORS: Record<string, string[]> = {
  status: ['equals', 'in'],
  response_time: ['less_than'],
  header: ['equals', 'contains', 'matches'],
  body: ['contains', 'not_contains', 'matches'],
  json: ['equals', 'contains', 'exists'],
};

export function AssertionsBuilder(props: {
  value: AssertionDraft[];
  onChange: (list: AssertionDraft[]) => void;
  error: ApiError | null;
  /** The assertion kinds the monitor's type takes (all when absent), and what counts as up without any. */
  types?: readonly string[];
  emptyText?: string;
}) {
  const types = props.types ?? Object.keys(OPERATORS);
  const first = types[0]!;
  const update = (i: number, patch: Partial<AssertionDraft>) =>
    props.onChange(props.value.map((a, j) => (j === i ? { ...a, ...patch } : a)));
  return (
    <fieldset className="field assertions" data-field="config.assertions">
      <legend>Assertions</legend>
      {props.value.length === 0 && (
        <p className="muted">{props.emptyText ?? 'None: any 2xx/3xx answer counts as up.'}</p>
      )}
      {props.value.map((a, i) => {
        const issue =
          props.error?.issueFor(`config.assertions[${i}]`) ?? props.error?.issueFor(`config.assertions.${i}`);
        return (
          <div key={i} className="assertion-row" role="group" aria-label={`Assertion ${i + 1}`}>
            <label>
              Check
              <select
                value={a.type}
                onChange={(e) => update(i, { type: e.target.value, operator: OPERATORS[e.target.value]![0]! })}
              >
                {types.map((t) => (
                  <option key={t} value={t}>
                    {t.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </label>
            {a.type === 'header' && (
              <label>
                Header
                <input value={a.name} onChange={(e) => update(i, { name: e.target.value })} />
              </label>
            )}
            {a.type === 'json' && (
              <label>
                JSONPath
                <input value={a.path} placeholder="$.status" onChange={(e) => update(i, { path: e.target.value })} />
              </label>
            )}
            <label>
              Operator
              <select value={a.operator} onChange={(e) => update(i, { operator: e.target.value })}>
                {OPERATORS[a.type]!.map((o) => (
                  <option key={o} value={o}>
                    {o.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Value
              <input
                value={a.value}
                placeholder={a.operator === 'in' ? '200, 204' : a.operator === 'exists' ? 'true' : ''}
                onChange={(e) => update(i, { value: e.target.value })}
              />
            </label>
            <button
              type="button"
              className="ghost"
              onClick={() => props.onChange(props.value.filter((_, j) => j !== i))}
            >
              Remove<span className="visually-hidden"> assertion {i + 1}</span>
            </button>
            {issue && (
              <p className="field-error" role="alert">
                {issue}
              </p>
            )}
          </div>
        );
      })}
      <button
        type="button"
        onClick={() =>
          props.onChange([
            ...props.value,
            first === 'status'
              ? { type: 'status', name: '', path: '', operator: 'equals', value: '200' }
              : { type: first, name: '', path: '', operator: OPERATORS[first]![0]!, value: '' },
          ])
        }
      >
        Add assertion
      </button>
    </fieldset>
  );
}
