// The sync module's HTTP calls to the server: JSON in, JSON out, a refusal told apart from a passing failure.
export const iso = (ms: number) => new Date(ms).toISOString();

export const post = (body: unknown, session?: string) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', ...(session ? { authorization: `Bearer ${session}` } : {}) },
  body: JSON.stringify(body),
});

export class SyncRefused extends Error {
  override name = 'SyncRefused';
}

// Another device of this user removed this one from the server: it joins again only as a new device.
export class SyncRemoved extends SyncRefused {
  override name = 'SyncRemoved';
}

// A refusal (4xx) is final until the user changes something; a server error (5xx) is tried again.
export async function readJson(
  answer: { ok: boolean; status: number; json(): Promise<unknown> },
  what: string,
): Promise<unknown> {
  if (answer.ok) return answer.json();
  const words = `The sync server answered ${answer.status} to ${what}.`;
  throw answer.status < 500 ? new SyncRefused(words) : new Error(words);
}
