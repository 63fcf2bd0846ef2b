import { clientTimes } from '../common/time';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';

/** Every way a session ends (decisions §18). */
export const SESSION_ENDS = [
  'expired',
  'forced_offline',
  'logged_out',
  'card_banned',
  'card_expired',
  'card_no_uses_left',
  'device_unbound',
  'seat_evicted',
  'user_banned',
  'user_deleted',
  'unknown',
] as const;
export type SessionEnd = (typeof SESSION_ENDS)[number];

/** Why a session ended, and when; `at` is null only for `unknown`. */
export interface SessionEnding {
  endedBy: SessionEnd;
  at: Date | null;
}

/** What a session's own row says: revoked (why was recorded then; rows revoked before that say nothing), or past its expiry. */
export function endingOfSession(
  session: { revokedAt: Date | null; endedBy: SessionEnd | null; expiresAt: Date },
  cardExpiresAt: Date | null,
  now = Date.now(),
): SessionEnding | null {
  if (session.revokedAt) return { endedBy: session.endedBy ?? 'forced_offline', at: session.revokedAt };
  if (session.expiresAt.getTime() > now) return null;
  // A card session never outlives its card: one that ran out with its card ended because the card expired.
  if (cardExpiresAt && cardExpiresAt.getTime() <= session.expiresAt.getTime())
    return { endedBy: 'card_expired', at: cardExpiresAt };
  return { endedBy: 'expired', at: session.expiresAt };
}

/** The heartbeat's SESSION_INVALID, saying why and when in `data` (times as every answer writes them). */
export function sessionEnded(ending: SessionEnding, timeZone: string): ServiceError {
  return new ServiceError(ErrorCode.SESSION_INVALID, undefined, {
    data: { ended_by: ending.endedBy, ...clientTimes(timeZone, { ended_at: ending.at }) },
  });
}

/**
 * Why a card session ends when a heartbeat finds its card no longer admits the device (the code of
 * `deviceRefusal`): a consumed top-up card has no use left; a card deleted or never bound to the
 * device leaves it unbound.
 */
export function cardSessionEnd(refusal: ErrorCode): SessionEnd {
  switch (refusal) {
    case ErrorCode.CARD_BANNED:
      return 'card_banned';
    case ErrorCode.CARD_EXPIRED:
      return 'card_expired';
    case ErrorCode.CARD_INVALID:
      return 'card_no_uses_left';
    default:
      return 'device_unbound';
  }
}
