// `npm start`: the built app (vite preview, as before) and the sync server side by side; Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const port = process.env.PORT ?? '4173';
const children = [
  spawn(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'preview', '--host', '127.0.0.1', '--port', port, '--strictPort'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  ),
  spawn(process.execPath, [join(root, 'dist-server/sync-server.mjs')], { cwd: root, stdio: 'inherit' }),
];

const running = (child) => child.exitCode === null && child.signalCode === null;
let exitCode = 0;
function stopAll(signal) {
  for (const child of children) if (running(child)) child.kill(signal);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAll(signal));
for (const child of children) {
  // one of them stopping (a taken port, a crash) stops the other: never half of `npm start`
  child.on('exit', (code) => {
    if (code) exitCode = code;
    stopAll('SIGTERM');
    if (children.every((each) => !running(each))) process.exit(exitCode);
  });
}
