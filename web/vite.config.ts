import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app is served by `tocsin serve` from web/dist (src/http/routes/web): hashed files under /assets/.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The first page must stay small (≤ 250 KB gzipped): every page is its own chunk (see src/routes.tsx).
    chunkSizeWarningLimit: 400,
    // No inline <script> and no module-preload polyfill: the CSP allows scripts from this origin only.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/status': 'http://127.0.0.1:3000' } },
});
