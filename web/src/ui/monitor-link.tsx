import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';

/** A link to a monitor by its name (read once and shared with its detail page's cache), its id until then. */
export function MonitorLink({ id }: { id: string }) {
  const api = useApi();
  const monitor = useQuery({
    queryKey: ['monitor', id, 'detail'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/monitors/{id}', { params: { path: { id } } })),
    staleTime: 60_000,
    retry: false,
  });
  return <Link to={`/monitors/${id}`}>{monitor.data?.name ?? id}</Link>;
}
