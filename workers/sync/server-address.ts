// A sync server's address, read once: by the service when a Connect is asked (before the sync client's code loads)
// and by the client when it calls the server.

// The server's HTTP origin for a ws:// or wss:// address (the same port serves both); null when it is neither.
export function httpOrigin(serverUrl: string): string | null {
  try {
    const url = new URL(serverUrl);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return null;
    return `${url.protocol === 'wss:' ? 'https:' : 'http:'}//${url.host}`;
  } catch {
    return null;
  }
}
