import { LiveChain } from './live-chain';

// The live chain on a sandbox copy in the worker (peer A's): the real records are never touched.
export function TamperDemo({ prepare }: { prepare: () => Promise<void> }) {
  return (
    <section aria-labelledby="tamper-heading">
      <h2 id="tamper-heading" className="h5">
        Tamper demo
      </h2>
      <p className="text-body-secondary">
        This works on a sandbox copy of the chain held in the worker, never on the real records. Open a block and change its title
        or description: its hash is recomputed as you type, so it no longer meets the difficulty, and the next block's link to it
        breaks. Re-mine it, or re-mine from it to the tip, to make the chain valid again.
      </p>
      <LiveChain peer="A" caption="Sandbox chain" prepare={prepare} />
    </section>
  );
}
