import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
  type UseMutationOptions,
  type UseMutationResult,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useRef, type RefObject } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { useFocusFirstInvalid } from './form';

/**
 * What every editor page starts from: the id in its URL (none: a new item), the API, navigation, the query cache,
 * the session (whether its role may write) and the form's element (for focusing the first refused field).
 */
export function useEditPage() {
  const { id } = useParams();
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const form = useRef<HTMLFormElement>(null);
  return { id, api, navigate, queryClient, session, writable: can(session.role).write, form };
}

/** Retries only what may pass on a second try: a refusal (4xx) is final, a server or network failure is retried twice. */
export function retryUnlessRefused(failures: number, error: Error): boolean {
  return !(error instanceof ApiError && error.status < 500) && failures < 2;
}

/** The saved item an editor edits, loaded only when the URL names one. */
export function useExisting<T>(
  queryKey: QueryKey,
  id: string | undefined,
  load: (id: string) => Promise<T>,
  retry?: boolean | ((failures: number, error: Error) => boolean),
): UseQueryResult<T> {
  return useQuery({
    queryKey,
    enabled: id !== undefined,
    // Enabled only with an id, so it is there whenever this runs.
    queryFn: async () => load(id!),
    ...(retry !== undefined && { retry }),
  });
}

/**
 * A save that may be sent twice without being done twice: a fresh key for each attempt (the API answers a repeated
 * key with the first answer).
 */
export function idempotencyHeader(): { 'Idempotency-Key': string } {
  return { 'Idempotency-Key': crypto.randomUUID() };
}

/**
 * The form's save, with the refusal as an ApiError for its fields (null for anything else, which FormError shows)
 * and focus moved to the first refused field once the refusal is drawn.
 */
export function useFormSave<T>(
  form: RefObject<HTMLFormElement | null>,
  options: UseMutationOptions<T, Error, void>,
): { save: UseMutationResult<T, Error, void>; error: ApiError | null } {
  // Every editor's save says so in a note; a page that says it itself passes `meta: { toast: undefined }`.
  const save = useMutation({ ...options, meta: { toast: 'Saved.', ...options.meta } });
  useFocusFirstInvalid(form, save.error);
  return { save, error: save.error instanceof ApiError ? save.error : null };
}

/** Deleting the item: its list is loaded again and shown in its place. */
export function useRemoveAndLeave(
  remove: () => Promise<unknown>,
  list: { queryKey: QueryKey; path: string },
): UseMutationResult<unknown, Error, void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: remove,
    meta: { toast: 'Deleted.' },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: list.queryKey });
      void navigate(list.path);
    },
  });
}
