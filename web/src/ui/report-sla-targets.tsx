import { useQuery } from '@tanstack/react-query';
import type { Api } from '../api/client';
import { unwrap } from '../api/client';
import type { components } from '../api/schema';
import { errorBudget, type SlaPeriod } from '../lib/error-budget';
import { span } from '../lib/report-format';
import './report-pages.css';

export type SlaTarget = components['schemas']['SlaTarget'];

/** Every SLA target of the organization, page after page (a few dozen at most in practice). */
export function useSlaTargets(api: Api) {
  return useQuery({
    queryKey: ['sla-targets'],
    retry: false,
    queryFn: async () => {
      const all: SlaTarget[] = [];
      let cursor: string | undefined;
      do {
        const page = unwrap(
          await api.client.GET('/api/v1/sla-targets', {
            params: { query: { limit: 200, ...(cursor ? { cursor } : {}) } },
          }),
        );
        all.push(...page.data);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return all;
    },
  });
}

const PERIOD_NOUN: Record<SlaPeriod, [string, string]> = {
  daily: ['day', 'days'],
  weekly: ['week', 'weeks'],
  monthly: ['month', 'months'],
  quarterly: ['quarter', 'quarters'],
};

/** What the target allows: the editor's live preview of the error budget per period. */
export function BudgetPreview({ target, period }: { target: string; period: SlaPeriod }) {
  const value = target.trim() === '' ? Number.NaN : Number(target);
  const budget = errorBudget(value, period);
  const [one, many] = PERIOD_NOUN[period];
  return (
    <section className="card budget-preview" aria-labelledby="budget-preview" aria-live="polite">
      <h2 id="budget-preview">Error budget</h2>
      {budget ? (
        <>
          <p>
            {value} % {period} allows <strong data-testid="budget-mean">{span(budget.mean)}</strong> of downtime in a{' '}
            {budget.meanLabel}.
          </p>
          <p className="muted small">
            Calendar {many} differ: <span data-testid="budget-shortest">{span(budget.shortest)}</span> in the shortest{' '}
            {one}, <span data-testid="budget-longest">{span(budget.longest)}</span> in the longest (a change of daylight
            saving time included). The SLA report counts the real {one} in its time zone, and only monitored time: a
            pause, or time before a monitor existed, gives no budget.
          </p>
        </>
      ) : (
        <p className="muted">
          Enter a target above 0 and below 100 % (at most 3 decimals) to see the downtime it allows.
        </p>
      )}
    </section>
  );
}
