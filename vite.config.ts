import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';
import { dropUnusedPico } from './islands/pico/unused-parts.ts';

// Builds the browser side: one small entry (islands/main.ts) that lazily imports
// each React island, the shop's stylesheet and the admin pages' own. The server reads dist/.vite/manifest.json and
// serves the .br/.gz copies written beside each text file.
export default defineConfig({
  plugins: [react(), precompress()],
  publicDir: false,
  css: { postcss: { plugins: [dropUnusedPico()] } },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    manifest: true,
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: ['islands/main.ts', 'islands/styles.css', 'islands/admin.css'],
    },
  },
});
