// A device's proof to a sync server that its signed-in user holds a key the ledger enrols: a signature over the
// server's challenge, the ledger and the device. The device signs it and the server checks it with the same code.
import { SIGNATURE_ALGORITHM, fromBase64, importPublicKey, toBase64 } from './signatures';
import type { KeyEnrolment } from './types';

const PROOF_PREFIX = 'medledger-sync-proof|'; // never the prefix of a block's signed bytes

export interface DeviceProof {
  challenge: string; // as the server issued it
  genesis: string; // the ledger the device joins
  deviceId: string;
  userId: string;
  signature: string; // base64 Ed25519 over proofBytes
}

export function proofBytes(challenge: string, genesis: string, deviceId: string, userId: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${PROOF_PREFIX}${challenge}|${genesis}|${deviceId}|${userId}`);
}

export async function signProof(
  challenge: string,
  genesis: string,
  deviceId: string,
  userId: string,
  signingKey: CryptoKey,
): Promise<DeviceProof> {
  const signature = await crypto.subtle.sign(SIGNATURE_ALGORITHM, signingKey, proofBytes(challenge, genesis, deviceId, userId));
  return { challenge, genesis, deviceId, userId, signature: toBase64(signature) };
}

// Null when the proof's user is enrolled in `enrolment` and the signature holds for that user's key; else why not.
export async function proofProblem(proof: DeviceProof, enrolment: KeyEnrolment | undefined): Promise<string | null> {
  const publicKey = enrolment && Object.hasOwn(enrolment.users, proof.userId) ? enrolment.users[proof.userId] : undefined;
  if (!publicKey) return `the user "${proof.userId.slice(0, 60)}" is not enrolled in this ledger`;
  try {
    const bytes = proofBytes(proof.challenge, proof.genesis, proof.deviceId, proof.userId);
    const holds = await crypto.subtle.verify(
      SIGNATURE_ALGORITHM,
      await importPublicKey(publicKey),
      fromBase64(proof.signature),
      bytes,
    );
    return holds ? null : `the signature does not hold for the enrolled key of ${proof.userId}`;
  } catch {
    return 'the signature is malformed';
  }
}
