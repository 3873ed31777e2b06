import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

// The gateway serves /api in every environment; the dev server forwards to it so the
// browser sees a single origin, as it does in production.
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, process.cwd(), '');
  const apiTarget = env.VITE_API_PROXY || 'http://localhost:8080';
  return {
    plugins: [react()],
    server: {
      port: 5173,
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    preview: {
      proxy: { '/api': { target: apiTarget, changeOrigin: true } },
    },
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  };
});
