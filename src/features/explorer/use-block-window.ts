import { useEffect, useRef, useState } from 'react';
import type { BlockSummary, BlocksPage } from '../../../workers/api';

export const BLOCKS_PER_PAGE = 100;

export type LoadBlocks = (offset: number, limit: number) => Promise<BlocksPage>;

interface PageStore {
  generation: number;
  pages: ReadonlyMap<number, readonly BlockSummary[]>;
}

const NO_PAGES: ReadonlyMap<number, readonly BlockSummary[]> = new Map();

// Fetches only the pages of blocks that cover rows [first, last] (newest first), so a 10,000-block chain never
// crosses the worker boundary whole. When the generation changes (new blocks, checked signatures) the pages in
// view are fetched again, and the ones on screen stay until theirs arrive: the table never blanks.
export function useBlockWindow(load: LoadBlocks, generation: number, first: number, last: number) {
  const [store, setStore] = useState<PageStore>({ generation, pages: NO_PAGES });
  const [error, setError] = useState<Error | null>(null);
  const requested = useRef({ generation, pages: new Set<number>() });
  const { pages } = store;

  useEffect(() => {
    if (last < first) return;
    if (requested.current.generation !== generation) requested.current = { generation, pages: new Set() };
    const asked = requested.current.pages;
    for (let page = Math.floor(first / BLOCKS_PER_PAGE); page <= Math.floor(last / BLOCKS_PER_PAGE); page += 1) {
      if (asked.has(page)) continue;
      asked.add(page);
      load(page * BLOCKS_PER_PAGE, BLOCKS_PER_PAGE).then(
        (result) =>
          setStore((previous) => {
            if (previous.generation > generation) return previous;
            return { generation, pages: new Map(previous.pages).set(page, result.blocks) };
          }),
        (reason: unknown) => {
          asked.delete(page);
          setError(reason instanceof Error ? reason : new Error(String(reason)));
        },
      );
    }
  }, [load, generation, first, last]);

  return {
    error,
    blockAt(position: number): BlockSummary | undefined {
      return pages.get(Math.floor(position / BLOCKS_PER_PAGE))?.[position % BLOCKS_PER_PAGE];
    },
  };
}
