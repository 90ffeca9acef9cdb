// Builds the client into the folder named on the command line (default dist/): one JS and one
// CSS bundle with content hashes in their names, and index.html pointing at them.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const out = process.argv[2] ?? 'dist';
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await esbuild.build({
  entryPoints: { app: 'src/main.ts' },
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: ['es2020'],
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => f.endsWith('.js'));
const css = outputs.find((f) => f.endsWith('.css'));
const page = readFileSync('index.html', 'utf8')
  .replace('%APP_JS%', `/assets/${js}`)
  .replace('%APP_CSS%', `/assets/${css}`);
writeFileSync(join(out, 'index.html'), page);
copyFileSync('favicon.svg', join(out, 'favicon.svg'));
console.log(`web client built into ${out}: ${js}, ${css}`);
