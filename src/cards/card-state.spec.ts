import { ErrorCode } from '../core/errors/error-code';
import { cardRefusal, clientExpiry, deviceRefusal, isCardExpired } from './card-state';

describe('card state', () => {
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
