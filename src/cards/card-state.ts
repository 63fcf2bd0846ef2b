import { formatLocalTime, PERMANENT_EXPIRY } from '../common/time';
import { ErrorCode } from '../core/errors/error-code';
import { Card } from './card.entity';

type CardState = Pick<Card, 'status' | 'expiresAt'>;

/** expired = now is past `expires_at` (decisions §4); a card never activated or permanent has none. */
export function isCardExpired(card: Pick<Card, 'expiresAt'>, now = Date.now()): boolean {
  return card.expiresAt !== null && card.expiresAt.getTime() <= now;
}

/** Why an existing card cannot be used now (banned, then expired), or null when it can. */
export function cardRefusal(card: CardState, now = Date.now()): ErrorCode.CARD_BANNED | ErrorCode.CARD_EXPIRED | null {
  if (card.status === 'banned') return ErrorCode.CARD_BANNED;
  if (isCardExpired(card, now)) return ErrorCode.CARD_EXPIRED;
  return null;
}

/**
 * Why a card would not let this device in right now without a login (decisions §16: `/api/check`,
 * offline checkout): banned or expired first, then DEVICE_NOT_BOUND for a card never activated or
 * a device not bound to it; null when it would.
 */
export function deviceRefusal(card: CardState, deviceBound: boolean, now = Date.now()): ErrorCode | null {
  return cardRefusal(card, now) ?? (card.status === 'active' && deviceBound ? null : ErrorCode.DEVICE_NOT_BOUND);
}

/** A card's expiry as clients see it: local `YYYY-MM-DD HH:MM:SS`, or the far date of a permanent card. */
export function clientExpiry(card: Pick<Card, 'expiresAt'>, timeZone: string): string {
  return card.expiresAt ? formatLocalTime(card.expiresAt, timeZone) : PERMANENT_EXPIRY;
}
