import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime } from '../lib/format';

const CHOICES: Array<[number, string]> = [
  [15, '15 minutes'],
  [30, '30 minutes'],
  [60, '1 hour'],
  [240, '4 hours'],
  [1440, '1 day'],
];

/** "Mute for N minutes": a silence of this monitor from now (POST /monitors/{id}/mute); checks and incidents go on. */
export function MuteMonitor({ monitorId }: { monitorId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [minutes, setMinutes] = useState(30);
  const mute = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/monitors/{id}/mute', {
          params: { path: { id: monitorId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
          body: { minutes },
        }),
      ),
    meta: { toast: 'Monitor muted.' },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['silences'] }),
  });
  return (
    <form
      className="inline-form mute"
      aria-label="Mute notifications"
      onSubmit={(e) => {
        e.preventDefault();
        mute.mutate();
      }}
    >
      <label>
        Mute notifications for{' '}
        <select value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
          {CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="submit" disabled={mute.isPending}>
        Mute
      </button>
      <span role="status" aria-live="polite">
        {mute.data && (
          <>
            {' '}
            Muted until {dateTime(mute.data.ends_at)} (<Link to="/silences">silences</Link>).
          </>
        )}
      </span>
      {mute.error && (
        <span role="alert" className="form-error">
          {' '}
          {mute.error.message}
        </span>
      )}
    </form>
  );
}
