// `npm run bench`: prints the benchmark tables and writes them as JSON under tests/bench/results/.
// The TypeScript benches are loaded through Vite's module runner with js-sha256 aliased to its browser
// source: under Node the package resolves to a node:crypto wrapper, which is not what the browser runs.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));

const { module: core } = await runnerImport('/tests/bench/core-bench.ts', {
  root,
  logLevel: 'error',
  resolve: {
    alias: [{ find: /^js-sha256$/, replacement: fileURLToPath(new URL('../../node_modules/js-sha256/src/index.mjs', import.meta.url)) }],
  },
});

console.log('Ledger core benchmark (Node, pure-JS SHA-256 as in the browser)...');
const report = await core.runCoreBench((line) => console.log(line));
if (report.sha256Path !== 'pure-js') throw new Error('js-sha256 resolved to its node:crypto wrapper: the bench would not measure the browser path');
console.log('\n' + core.formatCoreTable(report) + '\n');
await mkdir(resultsDir, { recursive: true });
await writeFile(new URL('./results/core.json', import.meta.url), JSON.stringify(report, null, 2) + '\n');
console.log('Written: tests/bench/results/core.json');
