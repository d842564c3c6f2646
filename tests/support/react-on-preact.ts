// `react` in the UI tests: preact/compat, which ships, with act from Preact's test utilities (React 19 exports
// act from `react`; preact/compat does not).
// @ts-expect-error preact/compat's types are `export =`, which export * cannot name; at run time it is an ES module
export * from 'preact/compat';
export { default } from 'preact/compat';
export { act } from 'preact/test-utils';
