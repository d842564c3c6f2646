// Vite's `?url` import: the built file's URL (the worker project has no vite/client types).
declare module '*.wasm?url' {
  const url: string;
  export default url;
}
