import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SharedMap } from '../../workers/core/shared-map';

// One step of a history: set a key in the newest map, or copy it (the copy goes on, the original is kept).
type Step = { set: [number, number] } | { copy: true };
const steps = fc.array(fc.oneof(fc.record({ set: fc.tuple(fc.nat(300), fc.integer()) }), fc.constant({ copy: true } as const)), {
  maxLength: 400,
});

describe('SharedMap', () => {
  it('holds what a Map holds, in its order, and every map copied on the way keeps what it held then', () => {
    fc.assert(
      fc.property(steps, (history: Step[]) => {
        let shared = new SharedMap<number, number>();
        const model = new Map<number, number>();
        const kept: { shared: SharedMap<number, number>; model: Map<number, number> }[] = [];
        for (const step of history) {
          if ('copy' in step) {
            kept.push({ shared, model: new Map(model) });
            shared = shared.copy();
          } else {
            shared.set(...step.set);
            model.set(...step.set);
          }
        }
        for (const { shared: map, model: held } of [...kept, { shared, model }]) {
          expect([...map]).toEqual([...held]);
          expect(map.size).toBe(held.size);
          for (const key of [0, 1, 150, 300]) expect([map.has(key), map.get(key)]).toEqual([held.has(key), held.get(key)]);
        }
      }),
    );
  });

  it('owns every value until it is copied, then only the values set since', () => {
    const map = new SharedMap<string, number[]>([['a', [1]]]);
    expect(map.owns('a')).toBe(true);
    const copy = map.copy();
    copy.set('b', [2]);
    expect([map.owns('a'), copy.owns('a'), copy.owns('b'), map.owns('b')]).toEqual([false, false, true, false]);
  });
});
