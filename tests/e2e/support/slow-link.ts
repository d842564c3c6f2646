// A slow network between one device and the sync server: a TCP relay that passes what the server sends at a set rate
// (what the device sends goes at once). HTTP and the WebSocket both cross it, as they share the server's port.
import { connect, createServer, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

const SLICE_BYTES = 16 * 1024;

export interface SlowLink {
  port: number; // the device connects here instead of the server's port
}

// Paces `data` to `device` slice by slice; resolves when it has all been handed over.
async function paced(device: Socket, data: Buffer, bytesPerSecond: number): Promise<void> {
  for (let offset = 0; offset < data.length && !device.destroyed; offset += SLICE_BYTES) {
    const slice = data.subarray(offset, offset + SLICE_BYTES);
    device.write(slice);
    await new Promise((resolve) => setTimeout(resolve, (slice.length / bytesPerSecond) * 1000));
  }
}

// A relay to the server at `serverPort` on 127.0.0.1, closed when the test ends.
export async function slowLink(serverPort: number, bytesPerSecond: number): Promise<SlowLink> {
  const sockets = new Set<Socket>();
  const relay = createServer((device) => {
    const server = connect(serverPort, '127.0.0.1');
    for (const socket of [device, server]) {
      sockets.add(socket);
      socket.on('error', () => undefined); // a side that goes away closes the other below
      socket.on('close', () => {
        sockets.delete(socket);
        device.destroy();
        server.destroy();
      });
    }
    device.pipe(server);
    server.on('data', (data: Buffer) => {
      server.pause();
      void paced(device, data, bytesPerSecond).then(() => server.resume());
    });
    server.on('end', () => device.end());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  );
  const address = relay.address();
  if (!address || typeof address === 'string') throw new Error('the slow link has no port');
  return { port: address.port };
}
