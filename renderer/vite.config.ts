import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    // loaded from the app's own protocol, not over a network: one bundle costs nothing to fetch
    chunkSizeWarningLimit: 4096,
    // a busy shared machine makes the bundler's plugin-timing notice fire on every build; it is not ours to act on
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
