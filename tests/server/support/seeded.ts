// A sync server of a test's own, seeded by Sarah's laptop from a signed ledger: how the attack tests begin.
import { onTestFinished } from 'vitest';
import type { Block } from '../../../workers/core/types';
import { connectDevice, signedLedger, type DeviceOptions, type TestDevice } from './devices';
import { newStorageDir, startServer, type ServerProcess } from './server-process';

export interface Seeded {
  server: ServerProcess;
  ledger: Awaited<ReturnType<typeof signedLedger>>;
  blocks: Block[];
  laptop: TestDevice;
  device(name: string, blocks: readonly Block[], options?: Partial<DeviceOptions>): Promise<TestDevice>; // closed at the end
}

export async function seededServer(uploads = 1, env: Record<string, string> = {}, dir = newStorageDir()): Promise<Seeded> {
  const server = await startServer(dir, 0, env);
  const opened: TestDevice[] = [];
  onTestFinished(async () => {
    await Promise.allSettled(opened.map((device) => device.close()));
    await server.kill();
  });
  const ledger = await signedLedger(uploads);
  const blocks = await ledger.blocks();
  const device = async (name: string, held: readonly Block[], options: Partial<DeviceOptions> = {}) => {
    const made = await connectDevice(server.port, name, held, { as: ledger.sarah, ...options });
    opened.push(made);
    return made;
  };
  const laptop = await device('laptop', blocks, { keys: ledger.keys });
  const joined = await laptop.join();
  if (!joined.ok) throw new Error(`the laptop did not seed the server: ${joined.reason}`);
  return { server, ledger, blocks, laptop, device };
}
