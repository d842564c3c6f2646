// A client that asks for a WebSocket and resets its connection before the answer arrives is its own affair: the
// server refused it and goes on answering everyone else (it used to die of the socket's unhandled ECONNRESET).
import { connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { newStorageDir, startServer, type ServerProcess } from './support/server-process';

let server: ServerProcess | undefined;
afterEach(async () => server?.kill());

// An upgrade request with no session, then a reset (RST) as soon as anything comes back, or at once.
function upgradeAndReset(port: number): Promise<void> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done());
  });
}

it('keeps answering after 200 clients reset their refused WebSocket requests', async () => {
  server = await startServer(newStorageDir());
  for (let round = 0; round < 20; round += 1) {
    await Promise.all(Array.from({ length: 10 }, () => upgradeAndReset(server!.port)));
  }
  expect((await server.info()).genesis).toBeDefined();
  const alive = await Promise.race([server.exited.then(() => false), server.info().then(() => true)]);
  expect(alive).toBe(true);
});
