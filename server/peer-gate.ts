// Who is on the other end of each WebSocket. A socket opens only with the session of a device that proved its user's
// enrolled key (POST /api/join); the peer id its join message names is then bound to that device, and every message
// is passed on only when the device may send it: a change to a document it may only read is dropped.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { decodeSyncMessage } from '@automerge/automerge';
import { cbor, type DocumentId, type PeerId } from '@automerge/automerge-repo';
import { NodeWSServerAdapter } from '@automerge/automerge-repo-network-websocket';
import type { WebSocket, WebSocketServer } from 'ws';

const CHALLENGE_MS = 2 * 60_000; // a challenge not answered within this is void
const MAX_CHALLENGES = 1_000; // open at once; the oldest is voided beyond
const PASSED = new Set(['sync', 'request', 'doc-unavailable']); // ephemeral and heads gossip are not used here

export type Access = 'none' | 'read' | 'write';

export interface GateHooks {
  sessions: Record<string, string>; // SHA-256 of a token -> device id (the server's state, saved by `saved`)
  saved: () => void;
  access: (deviceId: string, documentId: string) => Access;
  refuseData: (deviceId: string, bytes: number) => string | null; // why a change of `bytes` is not taken, or null
  tookData: (deviceId: string, bytes: number) => void;
  log: (line: string) => void;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

function tokenOf(request: IncomingMessage): string {
  return new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('session') ?? '';
}

export function createPeerGate(sockets: WebSocketServer, hooks: GateHooks) {
  const challenges = new Map<string, number>(); // challenge -> issued at (ms)
  const socketDevice = new WeakMap<WebSocket, string>();
  const socketPeer = new WeakMap<WebSocket, PeerId>();
  const peerDevice = new Map<PeerId, string>();
  const peerSocket = new Map<PeerId, WebSocket>();

  const deviceOfSession = (token: string): string | undefined => (token ? hooks.sessions[hashOf(token)] : undefined);

  sockets.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const deviceId = deviceOfSession(tokenOf(request));
    if (deviceId) socketDevice.set(socket, deviceId);
    else socket.close(4401, 'prove this device first: POST /api/join');
    socket.on('close', () => {
      const peer = socketPeer.get(socket);
      if (peer && peerSocket.get(peer) === socket) {
        peerSocket.delete(peer);
        peerDevice.delete(peer);
      }
    });
  });

  // Why `message` from `deviceId` is dropped, or null to pass it on.
  function dropped(deviceId: string, message: Record<string, unknown>): string | null {
    if (!PASSED.has(String(message.type))) return `a ${String(message.type)} message`;
    if (message.type === 'doc-unavailable') return null;
    const documentId = String(message.documentId);
    const access = hooks.access(deviceId, documentId);
    if (access === 'none') return null; // the repo answers doc-unavailable, and remembers the request
    const data = message.data;
    if (!(data instanceof Uint8Array)) return 'a sync message without data';
    let changes: number;
    try {
      changes = decodeSyncMessage(data).changes.length;
    } catch {
      return 'a malformed sync message';
    }

    if (changes === 0) return null;
    if (access === 'read') return `a change to document ${documentId}, which it may only read`;
    const refusal = hooks.refuseData(deviceId, data.byteLength);
    if (refusal) return `a change to document ${documentId}: ${refusal}`;
    hooks.tookData(deviceId, data.byteLength);
    return null;
  }

  class GatedAdapter extends NodeWSServerAdapter {
    override receiveMessage(messageBytes: Uint8Array, socket: WebSocket): void {
      const deviceId = socketDevice.get(socket);
      if (!deviceId) return;
      let message: Record<string, unknown>;
      try {
        message = cbor.decode(messageBytes) as Record<string, unknown>;
      } catch {
        return void socket.close();
      }
      const peer = message.senderId as PeerId;
      if (message.type === 'join') {
        const holder = peerDevice.get(peer);
        if (holder !== undefined && holder !== deviceId) {
          hooks.log(`a socket of device ${deviceId} claimed the peer id of device ${holder}: closed`);
          return void socket.close(4403, 'this peer id belongs to another device');
        }
        socketPeer.set(socket, peer);
        peerDevice.set(peer, deviceId);
        peerSocket.set(peer, socket);
        return super.receiveMessage(messageBytes, socket as never);
      }
      if (socketPeer.get(socket) !== peer) return; // a socket speaks only for the peer it joined as
      const why = dropped(deviceId, message);
      if (why) return hooks.log(`dropped ${why} from device ${deviceId}`);
      super.receiveMessage(messageBytes, socket as never);
    }
  }

  return {
    adapter: (keepAliveMs?: number) =>
      new GatedAdapter(sockets as unknown as ConstructorParameters<typeof NodeWSServerAdapter>[0], keepAliveMs),
    // the WebSocket opens only with a known session: a peer that proved nothing is refused at the upgrade
    verifyUpgrade: (request: IncomingMessage) => deviceOfSession(tokenOf(request)) !== undefined,
    deviceOfPeer: (peer: PeerId): string | undefined => peerDevice.get(peer),
    deviceOfSession,
    challenge(): string {
      const now = Date.now();
      for (const [challenge, at] of challenges)
        if (now - at > CHALLENGE_MS || challenges.size >= MAX_CHALLENGES) challenges.delete(challenge);
        else break;
      const challenge = randomBytes(32).toString('base64url');
      challenges.set(challenge, now);
      return challenge;
    },
    // True once for a challenge this server issued and nobody answered yet.
    takeChallenge(challenge: string): boolean {
      const at = challenges.get(challenge);
      challenges.delete(challenge);
      return at !== undefined && Date.now() - at <= CHALLENGE_MS;
    },
    // A new session for `deviceId`: its earlier ones end (a device holds one).
    openSession(deviceId: string): string {
      for (const [hash, holder] of Object.entries(hooks.sessions)) if (holder === deviceId) delete hooks.sessions[hash];
      const token = randomBytes(32).toString('base64url');
      hooks.sessions[hashOf(token)] = deviceId;
      hooks.saved();
      return token;
    },
    // Ends every session of `deviceId` (a removed device): it proves itself again before it opens anything.
    endSessions(deviceId: string): void {
      for (const [hash, holder] of Object.entries(hooks.sessions)) if (holder === deviceId) delete hooks.sessions[hash];
      hooks.saved();
    },
    // Closes the sockets of a device whose session ended.
    closeDevice(deviceId: string): void {
      for (const [peer, socket] of peerSocket) if (peerDevice.get(peer) === deviceId) socket.close(4401, 'session ended');
    },
    connectedDevices: (): string[] => [...new Set(peerDevice.values())],
  };
}

export type PeerGate = ReturnType<typeof createPeerGate>;
export type { DocumentId };
