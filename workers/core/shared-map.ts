// A map the projection keeps its indexes in: its copy shares the entries with the original, so a write to a long
// ledger copies only what changed lately while the snapshot it started from never changes (workers/ledger/store.ts).
// Entries live in a base map, shared once copied and then never changed, and the changes made since; the changes
// are folded into a new base of this map's own once they grow past the square root of the base (amortized cost)
// or when the map is iterated.
// Iteration follows a Map's order: first insertion decides the place of a key.
export class SharedMap<K, V> implements ReadonlyMap<K, V> {
  // private fields: a test's deep equality compares the entries, not how they are held
  #base: Map<K, V>;
  #changes: Map<K, V> | null; // null: the base is this map's own and takes changes in place
  #owned: Set<K> | null; // keys whose values this map made since it was copied (null: every value)
  #added = 0; // keys in #changes that the base does not hold

  constructor(entries?: Iterable<readonly [K, V]>) {
    this.#base = new Map(entries);
    this.#changes = null;
    this.#owned = null;
  }

  get size(): number {
    return this.#base.size + this.#added;
  }

  get(key: K): V | undefined {
    return this.#changes?.has(key) ? this.#changes.get(key) : this.#base.get(key);
  }

  has(key: K): boolean {
    return this.#base.has(key) || (this.#changes?.has(key) ?? false);
  }

  // Whether this map made the value at `key` (set since its last copy), so the fold may change it in place.
  owns(key: K): boolean {
    return this.#owned === null || this.#owned.has(key);
  }

  set(key: K, value: V): this {
    this.#owned?.add(key);
    if (this.#changes === null) {
      this.#base.set(key, value);
      return this;
    }
    if (!this.#changes.has(key) && !this.#base.has(key)) this.#added++;
    this.#changes.set(key, value);
    if (this.#changes.size > 32 + Math.sqrt(this.#base.size)) {
      this.#settled();
      this.#changes = null;
    }
    return this;
  }

  // The changes folded into a new base of this map's own (one native copy), which iterates at a Map's speed: a
  // snapshot's reads iterate it once that way, and later reads of it cost nothing more.
  #settled(): Map<K, V> {
    if (this.#changes?.size) {
      const base = new Map(this.#base);
      for (const [key, value] of this.#changes) base.set(key, value);
      this.#base = base;
      this.#changes = new Map();
      this.#added = 0;
    }
    return this.#base;
  }

  // A map holding the same entries: from now on neither changes the base they share, nor a value the other made.
  copy(): SharedMap<K, V> {
    const copy = new SharedMap<K, V>();
    copy.#base = this.#base;
    copy.#changes = new Map(this.#changes);
    copy.#owned = new Set();
    copy.#added = this.#added;
    this.#changes ??= new Map();
    this.#owned = new Set();
    return copy;
  }

  entries(): MapIterator<[K, V]> {
    return this.#settled().entries();
  }

  keys(): MapIterator<K> {
    return this.#settled().keys();
  }

  values(): MapIterator<V> {
    return this.#settled().values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }
}
