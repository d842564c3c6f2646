// A part of the service built on its first call, and the order calls keep while it loads (workers/service.ts).
export interface FirstUse<T> {
  built: () => T | undefined;
  loading: () => Promise<T> | null;
  get: () => Promise<T>;
}

// Built once, on first use; a failed load is tried again by the next call.
export function onFirstUse<T>(load: () => Promise<T>): FirstUse<T> {
  let built: T | undefined;
  let loading: Promise<T> | null = null;
  const done = (module: T) => {
    built = module;
    loading = null;
    return module;
  };
  const failed = (error: unknown) => {
    loading = null;
    throw error;
  };
  return { built: () => built, loading: () => loading, get: () => (loading ??= load().then(done, failed)) };
}

// While a part loads, every call waits behind the load in order of arrival: a call never overtakes one made
// before it (a sandbox reset and the chain read after it).
export function inArrivalOrder<S extends object>(service: S, loading: () => Promise<unknown> | null): S {
  const ordered = Object.entries(service).map(([name, method]: [string, (...args: unknown[]) => unknown]) => [
    name,
    (...args: unknown[]) => {
      const pending = loading();
      const run = () => method(...args);
      return pending ? pending.then(run, run) : run();
    },
  ]);
  return Object.fromEntries(ordered) as S;
}
