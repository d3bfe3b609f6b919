import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API and the SDK script come from the Polyflow server; in production it also serves this build.
const serverOrigin = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': { target: serverOrigin, changeOrigin: false },
      '/sdk.js': { target: serverOrigin, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Read by scripts/first-screen-size.mjs to check the first-screen budget.
    manifest: true,
  },
});
