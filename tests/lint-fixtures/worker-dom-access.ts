// Fixture, never built or linted with the tree: worker code that reaches for the DOM. tests/unit/worker-project.test.ts
// compiles it with tsconfig.worker.json's settings, where both names must be unknown.
export function rememberTitle(): void {
  localStorage.setItem('title', document.title);
}
