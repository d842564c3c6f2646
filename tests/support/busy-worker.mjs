// A worker thread that plays the ledger worker for the watchdog test: it computes in its own thread, so while it
// is busy the test's thread (and the watchdog in it) keeps running, as the page does beside the real worker.
import { workerData } from 'node:worker_threads';
import { expose } from 'comlink';

const PROBES_ANSWERED = 0; // slots of workerData.flags, an Int32Array over a SharedArrayBuffer the test also holds
const RELEASE = 1;
const flags = new Int32Array(workerData.flags);
const port = workerData.port; // a MessagePort, as the other watchdog tests use

// CPU-bound and synchronous: nothing else runs in this thread until it returns
function spin(iterations) {
  let x = 1;
  for (let i = 0; i < iterations; i += 1) x = (x * 1103515245 + 12345) | 0;
  return x;
}

const macrotask = () => new Promise((resolve) => setImmediate(resolve));

expose(
  {
    signIn: () => undefined, // what the liveness probe asks about
    // Long work the way mining and verification do it: synchronous slices with a macrotask between them, where the
    // worker answers other messages. It runs until the watchdog has probed it `probes` times, at most `maxSlices`.
    async crunch(probes, sliceIterations, maxSlices) {
      let slices = 0;
      while (Atomics.load(flags, PROBES_ANSWERED) < probes && slices < maxSlices) {
        spin(sliceIterations);
        slices += 1;
        await macrotask();
      }
      return slices;
    },
    // One call that never yields: the worker answers nothing until the test lets it go (or ends the thread).
    hang(maxSlices) {
      let slices = 0;
      while (Atomics.load(flags, RELEASE) === 0 && slices < maxSlices) {
        spin(100_000);
        slices += 1;
      }
      return slices;
    },
  },
  port,
);
