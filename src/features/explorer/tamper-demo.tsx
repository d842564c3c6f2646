import { LiveChain, type LiveChainProps } from './live-chain';

// The live chain on a sandbox copy in the worker (peer A's): the real records are never touched.
export function TamperDemo(props: Pick<LiveChainProps, 'prepare' | 'chain' | 'onChainChange'>) {
  return (
    <section aria-labelledby="tamper-heading">
      <h2 id="tamper-heading" className="h5">
        Tamper demo
      </h2>
      <p className="text-body-secondary">
        This works on a sandbox copy of the chain held in the worker, never on the real records. Open a block and change its title
        or description: its hash is recomputed as you type, so it no longer meets the difficulty, and the next block's link to it
        breaks. Re-mine it, or re-mine from it to the tip: on a demo chain of unsigned blocks, that makes the chain valid again.
        On the copy of the records chain each block is also signed by its author, and re-mining cannot forge a signature: the
        changed block stays invalid, which is what signatures are for.
      </p>
      <LiveChain peer="A" caption="Sandbox chain" {...props} />
    </section>
  );
}
