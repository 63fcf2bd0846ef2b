import { ErrorCode } from '../core/errors/error-code';
import { cardRefusal, clientExpiry, deviceRefusal, isCardExpired, loginRefusal } from './card-rule';

describe('card rule', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  const at = (iso: string | null) => (iso ? new Date(iso) : null);

  it('treats a card without expiry (unused or permanent) as never expired', () => {
    expect(isCardExpired({ expiresAt: null }, now)).toBe(false);
  });

  it('is expired from the instant of expires_at on', () => {
    expect(isCardExpired({ expiresAt: at('2026-06-01T00:00:00Z') }, now)).toBe(true);
    expect(isCardExpired({ expiresAt: at('2026-06-01T00:00:01Z') }, now)).toBe(false);
  });

  it('refuses a banned card before looking at its expiry', () => {
    expect(cardRefusal({ status: 'banned', expiresAt: at('2020-01-01T00:00:00Z') }, now)).toBe(ErrorCode.CARD_BANNED);
    expect(cardRefusal({ status: 'active', expiresAt: at('2020-01-01T00:00:00Z') }, now)).toBe(ErrorCode.CARD_EXPIRED);
    expect(cardRefusal({ status: 'unused', expiresAt: null }, now)).toBeNull();
  });

  it('treats a consumed top-up card as no card at all', () => {
    expect(cardRefusal({ status: 'consumed', expiresAt: null }, now)).toBe(ErrorCode.CARD_INVALID);
    expect(deviceRefusal({ status: 'consumed', expiresAt: null }, true, now)).toBe(ErrorCode.CARD_INVALID);
  });

  it('treats an unsold stock card as no card at all (decisions §26)', () => {
    expect(cardRefusal({ status: 'stock', expiresAt: null }, now)).toBe(ErrorCode.CARD_INVALID);
    expect(loginRefusal({ status: 'stock', expiresAt: null, kind: 'time', usesLeft: null }, now)).toBe(ErrorCode.CARD_INVALID);
    expect(deviceRefusal({ status: 'stock', expiresAt: null }, true, now)).toBe(ErrorCode.CARD_INVALID);
  });

  it('refuses a login of a count card without uses, after its state, and never a time card for uses', () => {
    const count = { status: 'active' as const, expiresAt: null, kind: 'count' as const };
    expect(loginRefusal({ ...count, usesLeft: 0 }, now)).toBe(ErrorCode.CARD_NO_USES_LEFT);
    expect(loginRefusal({ ...count, usesLeft: 1 }, now)).toBeNull();
    expect(loginRefusal({ ...count, status: 'banned', usesLeft: 0 }, now)).toBe(ErrorCode.CARD_BANNED);
    expect(loginRefusal({ status: 'active', expiresAt: null, kind: 'time', usesLeft: null }, now)).toBeNull();
    // A session or token of a card that used its last use stays valid: uses are a login rule.
    const usedUp = { ...count, usesLeft: 0 };
    expect(deviceRefusal(usedUp, true, now)).toBeNull();
  });

  it('lets a device in only on an active, valid card it is bound to', () => {
    const active = { status: 'active' as const, expiresAt: at('2026-07-01T00:00:00Z') };
    expect(deviceRefusal(active, true, now)).toBeNull();
    expect(deviceRefusal(active, false, now)).toBe(ErrorCode.DEVICE_NOT_BOUND);
    expect(deviceRefusal({ status: 'unused', expiresAt: null }, false, now)).toBe(ErrorCode.DEVICE_NOT_BOUND);
    expect(deviceRefusal({ status: 'banned', expiresAt: null }, true, now)).toBe(ErrorCode.CARD_BANNED);
    expect(deviceRefusal({ status: 'active', expiresAt: at('2026-05-01T00:00:00Z') }, true, now)).toBe(ErrorCode.CARD_EXPIRED);
  });

  it('shows a permanent card as 9999-12-31 23:59:59 and others in local time', () => {
    expect(clientExpiry({ expiresAt: null }, 'UTC')).toBe('9999-12-31 23:59:59');
    expect(clientExpiry({ expiresAt: at('2026-06-01T10:00:00Z') }, 'Asia/Shanghai')).toBe('2026-06-01 18:00:00');
  });
});
