import { useCallback, useEffect, useRef } from 'react';
import type { SandboxEdit, SandboxEditResult } from '../../../workers/api';
import type { LedgerRemote } from '../../ledger/ledger-context';

export type LiveEdit = Omit<SandboxEdit, 'seq'>;
export type LiveAnswer = Extract<SandboxEditResult, { stale: false }>;

// Edit sequence numbers only grow, for the whole page: the worker answers an edit older than one it applied
// to the same block as stale, and an editor opened again on a block must not look older than the last one.
let lastSeq = 0;

const keyOf = (edit: LiveEdit) => `${edit.peer}:${edit.index}`;

// Sends live edits as the user types without letting keystrokes queue up work: at most one edit is in flight;
// meanwhile only the newest edit of each block waits, and an answer is dropped when a newer edit of its block
// was made since (the screen shows only the latest text's hash).
export function useLiveEdit(service: LedgerRemote, onAnswer: (answer: LiveAnswer) => void, onError: (error: unknown) => void) {
  const waiting = useRef(new Map<string, SandboxEdit>());
  const newest = useRef(new Map<string, number>());
  const inFlight = useRef(false);
  const handlers = useRef({ onAnswer, onError });
  const mounted = useRef(true);

  useEffect(() => {
    handlers.current = { onAnswer, onError };
  });

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const pump = useCallback(async () => {
    inFlight.current = true;
    try {
      for (let next = waiting.current.entries().next(); !next.done; next = waiting.current.entries().next()) {
        const [key, edit] = next.value;
        waiting.current.delete(key);
        try {
          const answer = await service.sandboxEdit(edit);
          if (mounted.current && !answer.stale && newest.current.get(key) === answer.seq) handlers.current.onAnswer(answer);
        } catch (error) {
          if (mounted.current && newest.current.get(key) === edit.seq) handlers.current.onError(error);
        }
      }
    } finally {
      inFlight.current = false;
    }
  }, [service]);

  return useCallback(
    (edit: LiveEdit) => {
      const sent = { ...edit, seq: ++lastSeq };
      const key = keyOf(edit);
      newest.current.set(key, sent.seq);
      waiting.current.set(key, sent);
      if (!inFlight.current) void pump(); // its own loop: the keystroke's handler does not wait for the worker
    },
    [pump],
  );
}
