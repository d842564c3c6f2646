// Property tests for the access rules (workers/core/access.ts) against an oracle written from
// docs/decisions/access-rules.md, enforced-emergency-access.md and sharing.md, over random actors, documents,
// grants, shares and clocks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertCanDelete,
  assertCanReadPatient,
  assertGrantUsable,
  canReadPatient,
  canSeeRecord,
  documentAccess,
  accessScope,
  findActiveShare,
  isGrantActive,
  isGrantDue,
  isShareActive,
  requireRole,
  validateEmergencyRequest,
} from '../../workers/core/access';
import { EMERGENCY_DURATIONS, MAX_REASON_LENGTH, SHARE_DURATIONS_DAYS } from '../../workers/core/constants';
import { PATIENTS, USERS } from '../../workers/core/directory';
import type {
  AccessLevel,
  ChainRecord,
  Doctor,
  EmergencyGrant,
  Patient,
  DocumentInfo,
  Share,
  User,
} from '../../workers/core/types';
import { DENIED, MINUTE, START } from '../support/ledger-fixtures';

const RUNS = 1000;
const DAY = 24 * 60 * MINUTE;
const DELETE_DENIED = { name: 'AccessDeniedError', message: 'Access denied: Only patients can delete their own documents' };

// ---- the oracle: the rules as the spec states them, written without looking at access.ts ----

// A patient reads their own data; a doctor the patients of their own list.
function oracleReadsPatient(actor: User, patientId: string): boolean {
  if (actor.role === 'patient') return actor.id === patientId;
  return actor.patients.some((id) => id === patientId);
}

// "A doctor reads the documents that name them as the doctor", applied to the records that name them.
function oracleSeesRecord(actor: User, record: ChainRecord): boolean {
  return oracleReadsPatient(actor, record.patientId) || (actor.role === 'doctor' && actor.id === record.doctorId);
}

// A grant is in force from granting until its expiry or End, whichever is first.
function oracleInForce(grant: EmergencyGrant, now: number): boolean {
  if (!grant.isActive || grant.endedAt !== undefined) return false;
  return now < new Date(grant.expiresAt).getTime();
}

function oracleFullGrants(actor: Doctor, patientId: string, grants: readonly EmergencyGrant[], now: number): EmergencyGrant[] {
  return grants.filter(
    (g) => g.doctorId === actor.id && g.patientId === patientId && g.accessLevel === 'full' && oracleInForce(g, now),
  );
}

// A share is in force from sharing until its expiry (none: until revoked), and never once revoked (docs/decisions/sharing.md).
function oracleShareInForce(share: Share, now: number): boolean {
  if (share.revokedAt !== undefined) return false;
  return share.expiresAt === null || now < new Date(share.expiresAt).getTime();
}

// A share gives its doctor its own level on its patient: full reads files, basic does not.
function oracleFullShares(actor: Doctor, patientId: string, shares: readonly Share[], now: number): Share[] {
  return shares.filter(
    (s) => s.doctorId === actor.id && s.patientId === patientId && s.accessLevel === 'full' && oracleShareInForce(s, now),
  );
}

type OracleAccess = 'owner' | 'doctor' | 'emergency' | 'share' | 'denied';

// Own documents; documents naming the doctor; a doctor's full grant, else full share, in force on that patient.
function oracleDocumentAccess(
  actor: User,
  document: DocumentInfo,
  grants: readonly EmergencyGrant[],
  shares: readonly Share[],
  now: number,
): OracleAccess {
  if (actor.role === 'patient') return document.patientId === actor.id ? 'owner' : 'denied';
  if (document.doctorId === actor.id) return 'doctor';
  if (oracleFullGrants(actor, document.patientId, grants, now).length > 0) return 'emergency';
  return oracleFullShares(actor, document.patientId, shares, now).length > 0 ? 'share' : 'denied';
}

// Deletion is allowed only to the owning patient.
function oracleMayDelete(actor: User, document: DocumentInfo): boolean {
  return actor.role === 'patient' && document.patientId === actor.id;
}

// ---- generators ----

const IDS = [
  'patient-1',
  'patient-2',
  'doctor-1',
  'doctor-2',
  'patient-3',
  'doctor-9',
  '',
  'Patient-1',
  'patient-1 ',
  'constructor',
];
const idArb = fc.constantFrom(...IDS);
// Mostly the directory's ids, so actors, documents and grants meet often enough to exercise every branch.
const patientIdArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('patient-1', 'patient-2') },
  { weight: 1, arbitrary: idArb },
);
const doctorIdArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('doctor-1', 'doctor-2') }, { weight: 1, arbitrary: idArb });

const patientArb: fc.Arbitrary<Patient> = fc
  .record({ id: idArb, base: fc.constantFrom(...PATIENTS) })
  .map(({ id, base }) => ({ ...base, id }));
const doctorArb: fc.Arbitrary<Doctor> = fc
  .record({
    id: doctorIdArb,
    patients: fc.uniqueArray(patientIdArb, { maxLength: 4 }),
    base: fc.constantFrom(...USERS.filter((u): u is Doctor => u.role === 'doctor')),
  })
  .map(({ id, patients, base }) => ({ ...base, id, patients }));
const actorArb: fc.Arbitrary<User> = fc.oneof(fc.constantFrom(...USERS), patientArb, doctorArb);

const documentArb: fc.Arbitrary<DocumentInfo> = fc
  .record({ patientId: patientIdArb, doctorId: doctorIdArb })
  .map(({ patientId, doctorId }) => ({
    id: 'doc',
    fileName: 'scan.pdf',
    fileType: 'application/pdf',
    fileSize: 1,
    uploadDate: new Date(START).toISOString(),
    ipfsHash: 'Qm',
    patientId,
    doctorId,
    isEncrypted: true,
  }));

const sampleDocument: DocumentInfo = {
  id: 'doc',
  fileName: 'scan.pdf',
  fileType: 'application/pdf',
  fileSize: 1,
  uploadDate: new Date(START).toISOString(),
  ipfsHash: 'Qm',
  patientId: 'patient-1',
  doctorId: 'doctor-1',
  isEncrypted: true,
};

const recordArb = fc.record({ patientId: patientIdArb, doctorId: doctorIdArb }).map(({ patientId, doctorId }): ChainRecord => ({
  id: 'r',
  patientId,
  doctorId,
  type: 'prescription',
  title: 't',
  description: '',
  files: [],
  timestamp: new Date(START).toISOString(),
}));

const grantArb: fc.Arbitrary<EmergencyGrant> = fc
  .record({
    patientId: patientIdArb,
    doctorId: doctorIdArb,
    accessLevel: fc.constantFrom<AccessLevel>('basic', 'full'),
    startMinute: fc.integer({ min: -300, max: 300 }),
    durationMinutes: fc.constantFrom(...EMERGENCY_DURATIONS),
    state: fc.constantFrom('open', 'ended', 'expired-recorded'),
    endedAfterMinutes: fc.integer({ min: 0, max: 240 }),
  })
  .map((g) => {
    const createdAt = START + g.startMinute * MINUTE;
    return {
      id: 'grant',
      patientId: g.patientId,
      doctorId: g.doctorId,
      accessLevel: g.accessLevel,
      reason: 'Unconscious in the ER',
      durationMinutes: g.durationMinutes,
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: new Date(createdAt + g.durationMinutes * MINUTE).toISOString(),
      isActive: g.state === 'open',
      ...(g.state === 'ended' ? { endedAt: new Date(createdAt + g.endedAfterMinutes * MINUTE).toISOString() } : {}),
    };
  });

// The service stores at most one open grant per doctor and patient: a new one is refused while one is in
// force, and a due one is marked expired before another is made. Later open ones become recorded expiries.
function asStored(grants: EmergencyGrant[]): EmergencyGrant[] {
  const open = new Set<string>();
  return grants.map((grant, i) => {
    const pair = `${grant.doctorId}\u0000${grant.patientId}`;
    const result = { ...grant, id: `grant-${i}` };
    if (!grant.isActive) return result;
    if (open.has(pair)) return { ...result, isActive: false };
    open.add(pair);
    return result;
  });
}

const grantsArb = fc.array(grantArb, { maxLength: 8 }).map(asStored);

// Shares of either level, for a day, a week, a month or until revoked, made up to 31 days ago; some revoked.
// The chain lets a patient hold several shares with one doctor at once, so nothing here keeps them apart.
const shareArb: fc.Arbitrary<Share> = fc
  .record({
    patientId: patientIdArb,
    doctorId: doctorIdArb,
    accessLevel: fc.constantFrom<AccessLevel>('basic', 'full'),
    startMinute: fc.integer({ min: -31 * 24 * 60, max: 300 }),
    durationDays: fc.constantFrom(...SHARE_DURATIONS_DAYS),
    revokedAfterMinutes: fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 2 * 24 * 60 }) },
    ),
  })
  .map((s) => {
    const createdAt = START + s.startMinute * MINUTE;
    return {
      id: 'share',
      patientId: s.patientId,
      doctorId: s.doctorId,
      accessLevel: s.accessLevel,
      durationDays: s.durationDays,
      note: '',
      createdAt: new Date(createdAt).toISOString(),
      expiresAt: s.durationDays === 0 ? null : new Date(createdAt + s.durationDays * DAY).toISOString(),
      ...(s.revokedAfterMinutes === undefined
        ? {}
        : { revokedAt: new Date(createdAt + s.revokedAfterMinutes * MINUTE).toISOString() }),
    };
  });

const sharesArb = fc
  .array(shareArb, { maxLength: 6 })
  .map((shares) => shares.map((share, i) => ({ ...share, id: `share-${i}` })));

// A clock anywhere, or on the edges that matter: a grant's or share's creation, its last millisecond, its
// expiry, its end or revocation.
function clockArb(grants: readonly EmergencyGrant[], shares: readonly Share[] = []): fc.Arbitrary<number> {
  const around = (expiry: number) => [expiry - 1, expiry, expiry + 1];
  const edges = [
    ...grants.flatMap((g) => [
      Date.parse(g.createdAt),
      ...around(Date.parse(g.expiresAt)),
      ...(g.endedAt ? [Date.parse(g.endedAt)] : []),
    ]),
    ...shares.flatMap((s) => [
      Date.parse(s.createdAt),
      ...(s.expiresAt ? around(Date.parse(s.expiresAt)) : []),
      ...(s.revokedAt ? [Date.parse(s.revokedAt)] : []),
    ]),
  ];
  const anywhere = fc.integer({ min: START - 400 * MINUTE, max: START + 600 * MINUTE });
  return edges.length > 0 ? fc.oneof(anywhere, fc.constantFrom(...edges)) : anywhere;
}

const worldArb = fc
  .tuple(grantsArb, sharesArb)
  .chain(([grants, shares]) =>
    fc.record({ grants: fc.constant(grants), shares: fc.constant(shares), now: clockArb(grants, shares) }),
  );

// A document case where, often, the actor is a grant's or share's doctor and the document is of its patient.
const documentCaseArb = worldArb.chain(({ grants, shares, now }) => {
  const pairs = [...grants, ...shares].map(({ doctorId, patientId }) => ({ doctorId, patientId }));
  const pairArb = pairs.length > 0 ? fc.constantFrom(...pairs) : null;
  const actor = pairArb
    ? fc.oneof(
        actorArb,
        fc.tuple(pairArb, doctorArb).map(([pair, doctor]): User => ({ ...doctor, id: pair.doctorId })),
      )
    : actorArb;
  const document = pairArb
    ? fc.oneof(
        documentArb,
        fc.tuple(pairArb, documentArb).map(([pair, doc]) => ({ ...doc, patientId: pair.patientId })),
      )
    : documentArb;
  return fc.record({ grants: fc.constant(grants), shares: fc.constant(shares), now: fc.constant(now), actor, document });
});

function outcome(fn: () => unknown): { name: string; message: string } | 'allowed' {
  try {
    fn();
    return 'allowed';
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

describe('access rules against an oracle from the spec', { timeout: 60_000 }, () => {
  it('lets an actor read a patient, and see a record, exactly when the spec does', () => {
    fc.assert(
      fc.property(actorArb, idArb, recordArb, (actor, patientId, record) => {
        const reads = oracleReadsPatient(actor, patientId);
        expect(canReadPatient(actor, patientId)).toBe(reads);
        expect(outcome(() => assertCanReadPatient(actor, patientId))).toEqual(reads ? 'allowed' : DENIED);
        expect(canSeeRecord(actor, record)).toBe(oracleSeesRecord(actor, record));
      }),
      { numRuns: RUNS },
    );
  });

  it('opens a document to its owner, its doctor, a full grant or a full share in force, and refuses anyone else with the exact message', () => {
    const seen: Record<OracleAccess, number> = { owner: 0, doctor: 0, emergency: 0, share: 0, denied: 0 };
    fc.assert(
      fc.property(documentCaseArb, ({ actor, document, grants, shares, now }) => {
        const expected = oracleDocumentAccess(actor, document, grants, shares, now);
        seen[expected]++;
        const actual = outcome(() => documentAccess(actor, document, grants, now, shares));
        if (expected === 'denied') {
          expect(actual).toEqual(DENIED);
          return;
        }
        expect(actual).toBe('allowed');
        const access = documentAccess(actor, document, grants, now, shares);
        expect(access.via).toBe(expected);
        if (access.via === 'emergency')
          expect(oracleFullGrants(actor as Doctor, document.patientId, grants, now)).toContainEqual(access.grant);
        if (access.via === 'share')
          expect(oracleFullShares(actor as Doctor, document.patientId, shares, now)).toContainEqual(access.share);
      }),
      { numRuns: RUNS },
    );
    // every branch was reached often enough to mean something (the rarest, a full grant in force, comes ~25 times
    // in 1,000 runs: a bound of 20 failed now and then by chance)
    for (const [branch, count] of Object.entries(seen)) expect(count, branch).toBeGreaterThanOrEqual(RUNS / 100);
  });

  it('lets only the owning patient delete a document, with the exact message for anyone else', () => {
    fc.assert(
      fc.property(actorArb, documentArb, (actor, document) => {
        expect(outcome(() => assertCanDelete(actor, document))).toEqual(
          oracleMayDelete(actor, document) ? 'allowed' : DELETE_DENIED,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps a grant in force until its expiry or its end, and due (to be recorded) from its expiry while still open', () => {
    fc.assert(
      fc.property(worldArb, ({ grants, now }) => {
        for (const grant of grants) {
          const inForce = oracleInForce(grant, now);
          expect(isGrantActive(grant, now), `${grant.id} at ${now - START} ms`).toBe(inForce);
          const open = grant.isActive && grant.endedAt === undefined;
          expect(isGrantDue(grant, now)).toBe(open && !inForce);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps a share in force until its expiry, or for good when it has none, and never after it is revoked', () => {
    const seen = { active: 0, revoked: 0, expired: 0 };
    fc.assert(
      fc.property(worldArb, ({ shares, now }) => {
        for (const share of shares) {
          const inForce = oracleShareInForce(share, now);
          expect(isShareActive(share, now), `${share.id} at ${now - START} ms`).toBe(inForce);
          seen[inForce ? 'active' : share.revokedAt !== undefined ? 'revoked' : 'expired']++;
        }
      }),
      { numRuns: RUNS },
    );
    for (const [state, count] of Object.entries(seen)) expect(count, state).toBeGreaterThanOrEqual(RUNS / 10);
  });

  it("gives a share's doctor exactly the share's level on its patient while in force, and nothing after", () => {
    fc.assert(
      fc.property(worldArb, doctorArb, (world, doctor) => {
        for (const share of world.shares) {
          const actor: Doctor = { ...doctor, id: share.doctorId };
          // a document of the share's patient that names another doctor, with no grant: only the shares decide
          const document = { ...sampleDocument, patientId: share.patientId, doctorId: `${share.doctorId}-other` };
          const alone = [share];
          const inForce = oracleShareInForce(share, world.now);
          const found = findActiveShare(alone, actor.id, share.patientId, world.now);
          expect(found).toEqual(inForce ? share : undefined);
          if (found) expect(accessScope(found.accessLevel)).toEqual(accessScope(share.accessLevel));
          expect(outcome(() => documentAccess(actor, document, [], world.now, alone))).toEqual(
            inForce && share.accessLevel === 'full' ? 'allowed' : DENIED,
          );
          // among every share: files open exactly when one of the doctor's full shares on the patient is in force
          const full = oracleFullShares(actor, share.patientId, world.shares, world.now).length > 0;
          expect(outcome(() => documentAccess(actor, document, [], world.now, world.shares))).toEqual(full ? 'allowed' : DENIED);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('lets a doctor read under a grant only when it is theirs and in force', () => {
    fc.assert(
      fc.property(actorArb, worldArb, fc.nat(), (actor, { grants, now }, pick) => {
        const grant =
          grants.length > 0 && pick % (grants.length + 1) < grants.length ? grants[pick % (grants.length + 1)] : undefined;
        const usable = grant !== undefined && actor.role === 'doctor' && grant.doctorId === actor.id && oracleInForce(grant, now);
        expect(outcome(() => assertGrantUsable(actor, grant, now))).toEqual(usable ? 'allowed' : DENIED);
      }),
      { numRuns: RUNS },
    );
  });

  it('scopes basic access to the profile and 5 recent records without documents, and full access to everything', () => {
    expect(accessScope('basic')).toMatchObject({ records: 5, documents: false });
    expect(accessScope('full')).toMatchObject({ records: Infinity, documents: true });
  });

  it('refuses a role-only call to the other role with the exact message', () => {
    fc.assert(
      fc.property(actorArb, fc.constantFrom<User['role']>('patient', 'doctor'), (actor, role) => {
        expect(outcome(() => requireRole(actor, role))).toEqual(actor.role === role ? 'allowed' : DENIED);
      }),
      { numRuns: 200 },
    );
  });

  it('grants an emergency request only with an existing patient, a reason of 1 to 1000 characters, a level and a listed duration', () => {
    const reasonArb = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '   ',
        '\n\t',
        'x'.repeat(MAX_REASON_LENGTH),
        ` ${'x'.repeat(MAX_REASON_LENGTH)} `,
        'x'.repeat(MAX_REASON_LENGTH + 1),
      ),
      fc.constantFrom(undefined, null, 42),
    );
    const requestArb = fc.record({
      patientId: fc.oneof(idArb, fc.constantFrom(undefined, 7)),
      reason: reasonArb,
      accessLevel: fc.constantFrom('basic', 'full', 'Full', '', undefined),
      durationMinutes: fc.oneof(fc.constantFrom(...EMERGENCY_DURATIONS), fc.constantFrom(0, 45, -15, '60', 60.5, undefined)),
    });
    fc.assert(
      fc.property(requestArb, (request) => {
        const patientIds = PATIENTS.map((p) => p.id);
        const reason = typeof request.reason === 'string' ? request.reason.trim() : '';
        const valid =
          typeof request.patientId === 'string' &&
          patientIds.includes(request.patientId) &&
          reason.length >= 1 &&
          reason.length <= MAX_REASON_LENGTH &&
          (request.accessLevel === 'basic' || request.accessLevel === 'full') &&
          (EMERGENCY_DURATIONS as readonly unknown[]).includes(request.durationMinutes);
        const problem = validateEmergencyRequest(request, (id) => PATIENTS.find((p) => p.id === id));
        if (valid) expect(problem).toBeNull();
        else expect(problem).toEqual(expect.any(String));
      }),
      { numRuns: RUNS },
    );
  });
});
