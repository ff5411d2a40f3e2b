/** Status is always said in words and a shape, never by colour alone. */
const LABELS: Record<string, { text: string; icon: string }> = {
  up: { text: 'Up', icon: '▲' },
  down: { text: 'Down', icon: '▼' },
  degraded: { text: 'Degraded', icon: '◐' },
  paused: { text: 'Paused', icon: '❚❚' },
  pending: { text: 'Pending', icon: '○' },
  maintenance: { text: 'Maintenance', icon: '⚒' },
  opened: { text: 'Open', icon: '!' },
  acknowledged: { text: 'Acknowledged', icon: '✓' },
  resolved: { text: 'Resolved', icon: '✔' },
  delivered: { text: 'Delivered', icon: '✔' },
  logged: { text: 'Not sent', icon: '✎' },
  failed: { text: 'Failed', icon: '✖' },
  retrying: { text: 'Retrying', icon: '↻' },
  queued: { text: 'Queued', icon: '…' },
  sending: { text: 'Sending', icon: '→' },
};

export function StatusBadge({ status }: { status: string }) {
  const label = LABELS[status] ?? { text: status, icon: '•' };
  return (
    <span className={`badge badge-${status}`} data-status={status}>
      <span aria-hidden="true">{label.icon}</span> {label.text}
    </span>
  );
}
