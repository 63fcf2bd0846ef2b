import { createHash, verify } from 'node:crypto';
import { ed25519PublicKey, ResponseKeys } from './trust';

/** The payload of an offline licence (decisions §15); times are Unix seconds. */
export interface LicencePayload {
  v: 1;
  program_id: string;
  card_id: number;
  card_code_sha256: string;
  machine_id: string;
  kid: string;
  issued_at: number;
  valid_until: number;
  card_expires_at: number | null;
  /** The card type's features (decisions §19); [] for a card without a type; absent from a licence of an older service. */
  features?: string[];
  /** A trial card (decisions §21); absent from a licence of an older service. */
  trial?: boolean;
}

export type LicenceCheck = { valid: true; payload: LicencePayload } | { valid: false; reason: string };

export interface LicenceExpectations {
  /** The author's pinned public keys (kid → base64url). */
  keys: ResponseKeys;
  /** This device's code: a licence is for one machine. */
  machineId: string;
  /** The public program ID the licence must be for. */
  programId: string;
  /** When given, the licence must be for this card key. */
  cardKey?: string;
  /** Unix seconds; default now. */
  now?: number;
}

/**
 * Verifies an offline licence without a network: `base64url(payload).base64url(signature)`, the
 * signature Ed25519 over `svc-licence-v1.` + the encoded payload with a pinned key, the program,
 * the machine (and the card), and `valid_until` not yet passed.
 */
export function verifyLicence(licence: string, expected: LicenceExpectations): LicenceCheck {
  const [encoded, signature, extra] = licence.split('.');
  if (!encoded || !signature || extra !== undefined) return { valid: false, reason: 'not a licence' };
  let payload: LicencePayload;
  try {
    payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as LicencePayload;
  } catch {
    return { valid: false, reason: 'not a licence' };
  }
  const publicKey = expected.keys[payload.kid];
  if (!publicKey) return { valid: false, reason: `signed with an unknown key ${payload.kid}` };
  if (
    !verify(
      null,
      Buffer.from(`svc-licence-v1.${encoded}`, 'utf8'),
      ed25519PublicKey(publicKey),
      Buffer.from(signature, 'base64url'),
    )
  ) {
    return { valid: false, reason: 'the signature does not verify' };
  }
  if (payload.v !== 1 || payload.program_id !== expected.programId) return { valid: false, reason: 'for another program' };
  if (payload.machine_id !== expected.machineId) return { valid: false, reason: 'for another machine' };
  if (
    expected.cardKey !== undefined &&
    payload.card_code_sha256 !== createHash('sha256').update(expected.cardKey, 'utf8').digest('hex')
  ) {
    return { valid: false, reason: 'for another card' };
  }
  if ((expected.now ?? Date.now() / 1000) > payload.valid_until) return { valid: false, reason: 'expired' };
  return { valid: true, payload };
}
