// lint-as: src/features/records/lint-fixture.ts
// A worker call whose promise nobody waits for, an async click handler, and an await of a plain value.
interface Ledger {
  deleteDocument(id: string): Promise<void>;
}

export function deleteOnClick(button: HTMLButtonElement, ledger: Ledger, id: string): void {
  ledger.deleteDocument(id);
  button.addEventListener('click', async () => {
    await ledger.deleteDocument(id);
  });
}

export async function size(): Promise<number> {
  return await 5;
}
