import { clientTimes, formatLocalTime, PERMANENT_EXPIRY, permanentExpiryIso } from '../common/time';
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

type CardRefusal = ErrorCode.CARD_INVALID | ErrorCode.CARD_BANNED | ErrorCode.CARD_EXPIRED;

/** An SQL timestamp expression: `now()` in service statements, a bound parameter in the rule's spec. */
export type SqlInstant = string;

/** Expired: `expires_at` is set and not after now. A card never activated, or permanent, has none. */
export function isCardExpired(card: Pick<Card, 'expiresAt'>, now = Date.now()): boolean {
  return card.expiresAt !== null && card.expiresAt.getTime() <= now;
}

/** A count card with no uses left (decisions §13); a time card never runs out of uses. */
export function isUsedUp(card: Pick<Card, 'kind' | 'usesLeft'>): boolean {
  return card.kind === 'count' && (card.usesLeft ?? 0) <= 0;
}

/**
 * A card that is as if it did not exist: a consumed top-up card, and an unsold stock card (decisions
 * §26), which must not tell someone who guessed its key that it exists.
 */
export function isNoCard(card: Pick<Card, 'status'>): boolean {
  return card.status === 'consumed' || card.status === 'stock';
}

/**
 * Why an existing card cannot be used now, or null when it can: a consumed top-up card and an
 * unsold stock card are as if they did not exist (CARD_INVALID), then banned, then expired.
 */
export function cardRefusal(card: CardState, now = Date.now()): CardRefusal | null {
  if (isNoCard(card)) return ErrorCode.CARD_INVALID;
  if (card.status === 'banned') return ErrorCode.CARD_BANNED;
  if (isCardExpired(card, now)) return ErrorCode.CARD_EXPIRED;
  return null;
}

/**
 * Why a login of this card is refused before its device is looked at: `cardRefusal`, then a count
 * card without uses. Uses are spent by logins only: a session, a login token, `/api/check` and an
 * offline licence of a card that has just used its last one stay valid.
 */
export function loginRefusal(
  card: CardState & Pick<Card, 'kind' | 'usesLeft'>,
  now = Date.now(),
): CardRefusal | ErrorCode.CARD_NO_USES_LEFT | null {
  return cardRefusal(card, now) ?? (isUsedUp(card) ? ErrorCode.CARD_NO_USES_LEFT : null);
}

/** Whether a card can bind one more device: its bound devices are fewer than its limit. */
export function hasDeviceSlot(card: Pick<Card, 'deviceLimit'>, boundDevices: number): boolean {
  return boundDevices < card.deviceLimit;
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
  /** `isUsedUp`. */
  usedUp: (c: string) => `(${c}.kind = 'count' AND coalesce(${c}.uses_left, 0) <= 0)`,
  /** `cardRefusal(card) === null`. */
  usable: (c: string, now: SqlInstant = 'now()') =>
    `(${c}.status NOT IN ('banned', 'consumed', 'stock') AND NOT ${cardSql.expired(c, now)})`,
  /** `loginRefusal(card) === null`. */
  admitsLogin: (c: string, now: SqlInstant = 'now()') => `(${cardSql.usable(c, now)} AND NOT ${cardSql.usedUp(c)})`,
  /** `hasDeviceSlot(card, c.bound_devices)`: the count the triggers of migration 1765300000000 keep. */
  hasDeviceSlot: (c: string) => `(${c}.bound_devices < ${c}.device_limit)`,
  /** `deviceRefusal(card, bound) === null` for the machine code in `machine`. */
  admitsDevice: (c: string, machine: string, now: SqlInstant = 'now()') =>
    `(${c}.status = 'active' AND NOT ${cardSql.expired(c, now)}` +
    ` AND EXISTS (SELECT 1 FROM card_devices d WHERE d.card_id = ${c}.id AND d.machine_code = ${machine}))`,
  /**
   * A repeat login from a bound device: `admitsDevice` and `loginRefusal(card) === null`, on the
   * fast path without the card's lock. After waiting for the card's row, PostgreSQL re-checks only
   * the card's newest version, against a snapshot that may still hold a device released meanwhile
   * (an idle release binding a new device, an unbind): the card's count of device changes then
   * differs from the one the snapshot read, and the login goes to the locked path instead of being
   * told "success" for a slot it has just lost. Other logins of the card change no device and keep
   * the fast path.
   */
  admitsRepeatLogin: (c: string, machine: string, now: SqlInstant = 'now()') =>
    `(${cardSql.admitsDevice(c, machine, now)} AND NOT ${cardSql.usedUp(c)}` +
    ` AND ${c}.device_changes = (SELECT seen.device_changes FROM cards seen WHERE seen.id = ${c}.id))`,
  /** What a successful login takes: one use of a count card, nothing of a time card. */
  takeUse: (c: string) => `CASE WHEN ${c}.kind = 'count' THEN ${c}.uses_left - 1 ELSE ${c}.uses_left END`,
};

/** A card's expiry as clients see it: local `YYYY-MM-DD HH:MM:SS`, or the far date of a permanent card. */
export function clientExpiry(card: Pick<Card, 'expiresAt'>, timeZone: string): string {
  return card.expiresAt ? formatLocalTime(card.expiresAt, timeZone) : PERMANENT_EXPIRY;
}

/** `expires_at` as {@link clientExpiry} and `expires_at_iso`, the same instant with its offset (clientTimes). */
export function clientExpiryTimes(
  card: Pick<Card, 'expiresAt'>,
  timeZone: string,
): { expires_at: string; expires_at_iso: string } {
  return card.expiresAt
    ? clientTimes(timeZone, { expires_at: card.expiresAt })
    : { expires_at: PERMANENT_EXPIRY, expires_at_iso: permanentExpiryIso(timeZone) };
}
