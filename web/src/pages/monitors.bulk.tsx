import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import type { MonitorFilters } from '../api/monitors';
import { allMatching, type MonitorSummary } from '../api/monitor-pages';
import { plural } from '../lib/format';

type Action = 'pause' | 'resume' | 'tag' | 'delete';

/** Runs one call per selected monitor, four at a time, each with its own Idempotency-Key (safe to retry). */
async function forEachLimited(ids: string[], run: (id: string) => Promise<void>): Promise<string[]> {
  const failed: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        await run(id);
      } catch {
        failed.push(id);
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return failed;
}

/**
 * Pause, resume, tag or delete the selected monitors: either rows picked in the list (`selected`), or every monitor
 * matching the list's filters (`matching`), whose ids are read page by page when the action runs, not before.
 */
export function BulkBar(props: {
  selected: MonitorSummary[] | null;
  matching: { filters: MonitorFilters; total: number } | null;
  onDone: () => void;
  canDelete: boolean;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [tag, setTag] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const bulk = useMutation({
    mutationFn: async (action: Action) => {
      const targets = props.selected ?? (props.matching ? await allMatching(api, props.matching.filters) : []);
      const byId = new Map(targets.map((m) => [m.id, m]));
      const failed = await forEachLimited([...byId.keys()], async (id) => {
        const headers = { 'Idempotency-Key': crypto.randomUUID() };
        if (action === 'pause') {
          unwrap(await api.client.POST('/api/v1/monitors/{id}/pause', { params: { path: { id }, header: headers } }));
        } else if (action === 'resume') {
          unwrap(await api.client.POST('/api/v1/monitors/{id}/resume', { params: { path: { id }, header: headers } }));
        } else if (action === 'delete') {
          unwrap(await api.client.DELETE('/api/v1/monitors/{id}', { params: { path: { id }, header: headers } }));
        } else {
          const tags = [...new Set([...byId.get(id)!.tags, tag.trim()])];
          unwrap(
            await api.client.PATCH('/api/v1/monitors/{id}', {
              params: { path: { id }, header: headers },
              body: { tags },
            }),
          );
        }
      });
      return { action, failed: failed.length, total: byId.size };
    },
    onSuccess: ({ action, failed, total }) => {
      const verb = { pause: 'Paused', resume: 'Resumed', tag: 'Tagged', delete: 'Deleted' }[action];
      setResult(`${verb} ${total - failed} of ${total}${failed ? `; ${failed} failed` : ''}.`);
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
      props.onDone();
    },
  });
  const count = props.selected?.length ?? props.matching?.total ?? 0;
  return (
    <div className="bulk-bar" role="region" aria-label="Bulk actions">
      <span>{props.selected ? `${count} selected` : `All ${plural(count, 'matching monitor')} selected`}</span>
      <button type="button" disabled={!count || bulk.isPending} onClick={() => bulk.mutate('pause')}>
        Pause
      </button>
      <button type="button" disabled={!count || bulk.isPending} onClick={() => bulk.mutate('resume')}>
        Resume
      </button>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (tag.trim()) bulk.mutate('tag');
        }}
      >
        <label>
          <span className="visually-hidden">Tag to add</span>
          <input value={tag} placeholder="tag" onChange={(e) => setTag(e.target.value)} size={10} />
        </label>
        <button type="submit" disabled={!count || !tag.trim() || bulk.isPending}>
          Add tag
        </button>
      </form>
      {props.canDelete && (
        <button
          type="button"
          className="danger"
          disabled={!count || bulk.isPending}
          onClick={() => {
            if (
              window.confirm(
                `Delete ${plural(count, 'monitor')}? ${count === 1 ? 'Its' : 'Their'} history goes with ${count === 1 ? 'it' : 'them'}.`,
              )
            ) {
              bulk.mutate('delete');
            }
          }}
        >
          Delete
        </button>
      )}
      <span role="status">{bulk.isPending ? 'Working…' : result}</span>
    </div>
  );
}
