import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { landingBudget } from './tools/landingBudget';
import { precompress } from './tools/precompress';
import { sharedChunk } from './tools/sharedChunk';
import { supportEmailDefine } from './tools/supportEmail';

/** Issue 10: the landing page ships at most this much gzipped JavaScript, however many screens exist. */
const LANDING_BUDGET_BYTES = 150 * 1024;

// The gateway serves /api in every environment; the dev server forwards to it so the
// browser sees a single origin, as it does in production.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), '');
  const apiTarget = env.VITE_API_PROXY || 'http://localhost:8080';
  return {
    plugins: [
      react(),
      landingBudget({ routeModule: 'src/pages/LandingPage.tsx', maxGzipBytes: LANDING_BUDGET_BYTES }),
      precompress(),
    ],
    server: {
      port: 5173,
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    preview: {
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      sourcemap: true,
      // One chunk for the shared pieces the pages load after the entry (tools/sharedChunk.ts).
      rollupOptions: { output: { manualChunks: sharedChunk } },
    },
    // SUPPORT_EMAIL, the notifications service's setting, reaches the pages too: one address.
    define: supportEmailDefine(env),
  };
});
