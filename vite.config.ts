import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';

// Builds the browser side: one small entry (islands/main.ts) that lazily imports
// each React island, and the stylesheet. The server reads dist/.vite/manifest.json and
// serves the .br/.gz copies written beside each text file.
export default defineConfig({
  plugins: [react(), precompress()],
  publicDir: false,
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    manifest: true,
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: ['islands/main.ts', 'islands/styles.css'],
    },
  },
});
