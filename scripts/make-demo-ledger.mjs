// `node scripts/make-demo-ledger.mjs`: writes workers/core/demo-ledger.json, the demo ledger shipped with the app
// (workers/core/demo-ledger.ts). Run it only to start the demo over: every browser and backup of the old one then
// holds another ledger.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const load = async (path) => (await runnerImport(path, { root, logLevel: 'error', configFile: false })).module;
const { makeDemoLedger } = await load('/workers/core/demo-ledger.ts');
const { USERS } = await load('/workers/core/directory.ts');
const { DEMO_PASSWORD, DIFFICULTY } = await load('/workers/core/constants.ts');
const { PBKDF2_ITERATIONS } = await load('/workers/core/signatures.ts');

const demo = await makeDemoLedger({
  userIds: USERS.map((user) => user.id),
  password: DEMO_PASSWORD,
  iterations: PBKDF2_ITERATIONS,
  difficulty: DIFFICULTY,
  id: 'medledger-demo-genesis',
  timestamp: '2026-01-01T00:00:00.000Z',
});
writeFileSync(new URL('../workers/core/demo-ledger.json', import.meta.url), `${JSON.stringify(demo, null, 2)}\n`);
console.log(`demo ledger ${demo.genesis.hash.slice(0, 8)} written`);
