// Who holds a patient's summary key, and its wraps to them (docs/decisions/nothing-medical-in-clear.md): the
// distribution side of the summary keys sealed-fields.ts seals with. Pure, as sealed-fields.ts.
import { careConsentOf, isShareActive } from './access';
import { DOCTORS, PATIENTS } from './directory';
import {
  CARE_NETWORK,
  summaryEpochId,
  summaryWrapOf,
  unwrapSummaryKey,
  wrapSummaryKey,
  type KeyWrap,
  type Recipient,
} from './key-wraps';
import type { LedgerState } from './ledger-state';
import type { SummaryKey } from './sealed-fields';

// Who gets a wrap of `patientId`'s summary key at `now`: the patient (all their devices), the doctor they are listed
// with, every doctor holding an active share of either level, and the care network while the patient consents
// (`careNetworkKey` null: no sync server known). Only readers the genesis enrols a key for.
export function summaryRecipients(
  state: LedgerState,
  patientId: string,
  now: number,
  careNetworkKey: string | null,
): Recipient[] {
  const enrolled = state.enrolment?.encryption ?? {};
  const ids = new Set<string>([patientId]);
  const ownDoctor = PATIENTS.find((patient) => patient.id === patientId)?.doctorId;
  if (ownDoctor && DOCTORS.some((doctor) => doctor.id === ownDoctor)) ids.add(ownDoctor);
  for (const shareId of state.patientShares.get(patientId) ?? []) {
    const share = state.shares.get(shareId)?.share;
    if (share && isShareActive(share, now)) ids.add(share.doctorId);
  }
  const recipients = [...ids].flatMap((id) => (enrolled[id] ? [{ id, publicKey: enrolled[id] }] : []));
  return careConsentOf(state, patientId) && careNetworkKey
    ? [...recipients, { id: CARE_NETWORK, publicKey: careNetworkKey }]
    : recipients;
}

// One wrap of the summary key per recipient.
export function wrapSummaryKeyTo(summary: SummaryKey, recipients: readonly Recipient[], from: string): Promise<KeyWrap[]> {
  return Promise.all(
    recipients.map((recipient) => wrapSummaryKey(summary.patientId, summary.epochId, summary.key, recipient, from)),
  );
}

// The summary key a wrap holds for the holder of `privateKey`, only when the key is the one its epoch id names.
export async function openSummaryWrap(wrap: unknown, privateKey: CryptoKey): Promise<SummaryKey | null> {
  const named = summaryWrapOf(wrap);
  const key = named && (await unwrapSummaryKey(wrap, privateKey, named));
  if (!named || !key) return null;
  const { patientId, epochId } = named;
  return (await summaryEpochId(patientId, key)) === epochId ? { patientId, epochId, key } : null;
}
