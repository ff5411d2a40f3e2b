/** Plan and apply are the server's: the CLI sends the checked document to `--url` with `--key` (docs/config-as-code.md). */
export interface RemoteTarget {
  url: string;
  key: string;
}

export interface PlanAnswer {
  entries: Array<{
    kind: string;
    key: string;
    action: 'create' | 'update' | 'delete' | 'unchanged';
    item_id: string | null;
    changes: Array<{ field: string; before: unknown; after: unknown }>;
  }>;
  kept: Array<{ kind: string; key: string; item_id: string }>;
  summary: { create: number; update: number; delete: number; unchanged: number };
  applied: boolean;
}

export type RemoteAnswer =
  | { ok: true; plan: PlanAnswer }
  | { ok: false; status: number; code: string; message: string; details: Array<{ field: string; issue: string }> };

/** POSTs to /api/v1/config/{plan|apply}; a refusal comes back as the error envelope's code, message and details. */
export async function sendDocument(
  target: RemoteTarget,
  action: 'plan' | 'apply',
  body: { document: unknown; prune: boolean; secret_fields: string[] },
): Promise<RemoteAnswer> {
  const url = new URL(`/api/v1/config/${action}`, target.url.endsWith('/') ? target.url : `${target.url}/`);
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (response.ok) return { ok: true, plan: parsed as PlanAnswer };
  const error = (parsed as { error?: { code?: string; message?: string; details?: [] } } | null)?.error;
  return {
    ok: false,
    status: response.status,
    code: error?.code ?? 'http_error',
    message: error?.message ?? `HTTP ${response.status}: ${text.slice(0, 200)}`,
    details: error?.details ?? [],
  };
}

function value(v: unknown): string {
  return typeof v === 'string' && v.startsWith('(secret') ? v : JSON.stringify(v);
}

const MARK = { create: '+', update: '~', delete: '-', unchanged: '=' } as const;

/** The plan as a person reads it: one block per key that changes, its fields with before → after. */
export function formatPlan(plan: PlanAnswer): string {
  const lines: string[] = [];
  for (const entry of plan.entries) {
    if (entry.action === 'unchanged') continue;
    lines.push(`${MARK[entry.action]} ${entry.action} ${entry.kind} "${entry.key}"`);
    for (const change of entry.changes) {
      if (entry.action === 'create') lines.push(`    ${change.field}: ${value(change.after)}`);
      else if (entry.action === 'update')
        lines.push(`    ${change.field}: ${value(change.before)} → ${value(change.after)}`);
    }
  }
  for (const kept of plan.kept)
    lines.push(`! ${kept.kind} "${kept.key}" is no longer in the document: kept (--prune deletes it)`);
  const { create, update, delete: deleted, unchanged } = plan.summary;
  const verb = plan.applied ? 'Applied' : 'Plan';
  lines.push(`${verb}: ${create} to create, ${update} to update, ${deleted} to delete, ${unchanged} unchanged.`);
  return `${lines.join('\n')}\n`;
}
