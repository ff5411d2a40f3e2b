import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Api, ApiError } from './api/client';
import { ApiContext } from './api/context';
import { createAppRouter } from './routes';
import { applyStoredTheme } from './ui/theme';
import { ToastContext, ToastStore } from './ui/toasts';
import './ui/tokens.css';
import './styles.css';

applyStoredTheme();

const api = new Api();
const toasts = new ToastStore();
const queryClient = new QueryClient({
  // A completed action that asks for a note (`meta.toast`) gets one (ui/toasts.tsx).
  mutationCache: new MutationCache({
    onSuccess: (data, _variables, _context, mutation) => {
      const toast = mutation.meta?.toast;
      const text = typeof toast === 'function' ? toast(data) : toast;
      if (text) toasts.show(text);
    },
  }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal will not change by asking again; a network failure might.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: true,
      refetchOnReconnect: true,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiContext value={api}>
      <QueryClientProvider client={queryClient}>
        <ToastContext value={toasts}>
          <RouterProvider router={createAppRouter()} />
        </ToastContext>
      </QueryClientProvider>
    </ApiContext>
  </StrictMode>,
);
