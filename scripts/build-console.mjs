// Builds the console (docs/console.md) into dist/console: the page, one ES module bundling
// Preact, uPlot and the pages (esbuild), and one stylesheet. Part of `npm run build` and of the
// "prepare" script, so `npm ci` builds it and `npm start` serves it; nothing is fetched at run time.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'console');
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: join(root, 'console', 'app.tsx') },
  outdir: out,
  bundle: true,
  format: 'esm',
  target: 'es2020',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
await build({ entryPoints: { app: join(root, 'console', 'app.css') }, outdir: out, bundle: true, minify: true, logLevel: 'warning' });
copyFileSync(join(root, 'console', 'index.html'), join(out, 'index.html'));
