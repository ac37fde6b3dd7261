/// <reference types="node" />
/**
 * Builds the GUI into dist/renderer/ at the repository root. The same bundle is served by the headless service
 * at `/` and loaded by the Electron shell (possibly from a file URL), hence the relative base.
 * Nothing is fetched from the internet at run time: pdf.js, its worker and its standard fonts are bundled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import vue from '@vitejs/plugin-vue';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Copies pdf.js's standard font data (the metrics and glyphs of the 14 PDF base fonts, used when a PDF does not
 * embed them) into the bundle, so previews render with the right widths without any network access.
 */
function pdfjsStandardFonts(): Plugin {
  return {
    name: 'docloom-pdfjs-standard-fonts',
    apply: 'build',
    generateBundle() {
      const dir = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
      for (const name of fs.readdirSync(dir)) {
        this.emitFile({ type: 'asset', fileName: `pdfjs/standard_fonts/${name}`, source: fs.readFileSync(path.join(dir, name)) });
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  plugins: [vue(), pdfjsStandardFonts()],
  build: {
    outDir: path.resolve(here, '../dist/renderer'),
    emptyOutDir: true,
    // Never inline assets as data: URIs; everything is a file served from 'self'.
    assetsInlineLimit: 0,
    sourcemap: true,
    // pdf.js is large by nature; it is loaded in its own chunk only when a preview is shown.
    chunkSizeWarningLimit: 1600,
  },
  server: {
    // `vite --config renderer/vite.config.ts` during development: the API of a running `docloom serve`.
    proxy: { '/api': `http://127.0.0.1:${process.env.DOCLOOM_PORT ?? '7463'}` },
  },
});
