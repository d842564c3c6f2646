import type { ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the map holds every screen, each with props of its own
type AnyScreen = ComponentType<any>;
export type ScreenLoad<P> = () => Promise<ComponentType<P>>;

// Screens whose code src/start/main.tsx loaded before the first render: that render shows them at once, with no
// Suspense fallback (hydrating the pre-rendered login needs its very nodes; a returning user's dashboard waits less).
// No React here: src/start/main.tsx runs this before React has arrived.
const loaded = new WeakMap<object, AnyScreen>();

// Where the screen's code is already at hand (the build's pre-render imports it: it cannot load code later).
export function screenLoaded<P>(load: ScreenLoad<P>, screen: ComponentType<P>): void {
  loaded.set(load, screen);
}

export function loadScreen<P>(load: ScreenLoad<P>): Promise<void> {
  return load().then(
    (screen) => screenLoaded(load, screen),
    () => undefined, // offline or a newer build: the route loads (or reports) it when it renders
  );
}

export function loadedScreen<P>(load: ScreenLoad<P>): ComponentType<P> | undefined {
  return loaded.get(load);
}
