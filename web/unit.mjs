// Runs the unit tests of the client's pure modules (test/*.test.ts) with node's test runner:
// esbuild bundles each test file into ../target/web-unit/, then `node --test` runs them.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const out = join('..', 'target', 'web-unit');
rmSync(out, { recursive: true, force: true });
const tests = readdirSync('test').filter((f) => f.endsWith('.test.ts'));
await esbuild.build({
  entryPoints: tests.map((f) => join('test', f)),
  bundle: true,
  platform: 'node',
  format: 'esm',
  outdir: out,
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
});
const files = tests.map((f) => join(out, f.replace(/\.ts$/, '.mjs')));
const run = spawnSync(process.execPath, ['--test', ...files], { stdio: 'inherit' });
process.exit(run.status ?? 1);
