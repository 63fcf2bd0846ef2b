import { formatLocalTime, PERMANENT_EXPIRY } from '../common/time';
import { ErrorCode } from '../core/errors/error-code';
import { Card } from './card.entity';

/**
 * "Would this card let a device in?" — the one card rule (decisions §4), for every family and the
 * admin API. Each condition is written here twice, side by side: as a TypeScript predicate for the
 * locked login path, the heartbeat and the state checks, and as an SQL fragment for the statements
 * that decide in the database (the one-statement login, the login-token check, the admin filters).
 * `card-rule.spec.ts` evaluates both forms on a real database, at the boundaries, and they must agree.
 */

type CardState = Pick<Card, 'status' | 'expiresAt'>;

/** An SQL timestamp expression: `now()` in service statements, a bound parameter in the rule's spec. */
export type SqlInstant = string;

/** Expired: `expires_at` is set and not after now. A card never activated, or permanent, has none. */
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
 * offline checkout, heartbeats): banned or expired first, then DEVICE_NOT_BOUND for a card never
 * activated or a device not bound to it; null when it would.
 */
export function deviceRefusal(card: CardState, deviceBound: boolean, now = Date.now()): ErrorCode | null {
  return cardRefusal(card, now) ?? (card.status === 'active' && deviceBound ? null : ErrorCode.DEVICE_NOT_BOUND);
}

/** The same rule as SQL over a `cards` row aliased `c` (and its `card_devices`). */
export const cardSql = {
  /** `isCardExpired`. */
  expired: (c: string, now: SqlInstant = 'now()') => `(${c}.expires_at IS NOT NULL AND ${c}.expires_at <= ${now})`,
  /** `cardRefusal(card) === null`: neither banned nor expired. */
  usable: (c: string, now: SqlInstant = 'now()') => `(${c}.status <> 'banned' AND NOT ${cardSql.expired(c, now)})`,
  /** `deviceRefusal(card, bound) === null` for the machine code in `machine`. */
  admitsDevice: (c: string, machine: string, now: SqlInstant = 'now()') =>
    `(${c}.status = 'active' AND NOT ${cardSql.expired(c, now)}` +
    ` AND EXISTS (SELECT 1 FROM card_devices d WHERE d.card_id = ${c}.id AND d.machine_code = ${machine}))`,
};

/** A card's expiry as clients see it: local `YYYY-MM-DD HH:MM:SS`, or the far date of a permanent card. */
export function clientExpiry(card: Pick<Card, 'expiresAt'>, timeZone: string): string {
  return card.expiresAt ? formatLocalTime(card.expiresAt, timeZone) : PERMANENT_EXPIRY;
}
