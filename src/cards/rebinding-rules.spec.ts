import { RebindingRules, UNBIND_WINDOW_MS, unbindRefusal } from './rebinding-rules';

const now = new Date('2026-03-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const rules = (over: Partial<RebindingRules> = {}): RebindingRules => ({
  unbindEnabled: true,
  unbindMax: null,
  unbindCooldownSeconds: 0,
  unbindMaxPer30Days: null,
  ...over,
});

describe(unbindRefusal.name, () => {
  it('grants an unbind when no rule holds it back', () => {
    expect(unbindRefusal(rules(), 50, [ago(1000)], now)).toBeNull();
  });

  it('refuses for good when unbinding is off or the lifetime maximum is reached', () => {
    expect(unbindRefusal(rules({ unbindEnabled: false }), 0, [], now)).toEqual({ reason: 'disabled', retryAt: null });
    expect(unbindRefusal(rules({ unbindMax: 2 }), 2, [], now)).toEqual({ reason: 'limit', retryAt: null });
    expect(unbindRefusal(rules({ unbindMax: 2 }), 1, [], now)).toBeNull();
  });

  it('holds the cooldown from the last unbind, to the second', () => {
    const r = rules({ unbindCooldownSeconds: 600 });
    expect(unbindRefusal(r, 1, [ago(599_000)], now)).toEqual({ reason: 'cooldown', retryAt: new Date(now.getTime() + 1000) });
    expect(unbindRefusal(r, 1, [ago(600_000)], now)).toBeNull();
  });

  it('frees the 30-day maximum when enough unbinds have left the window', () => {
    const r = rules({ unbindMaxPer30Days: 2 });
    const recent = [ago(20 * 86_400_000), ago(10 * 86_400_000), ago(86_400_000)];
    // Three in the window, two allowed: free once the two oldest have left it, i.e. the second oldest.
    expect(unbindRefusal(r, 3, recent, now)).toEqual({
      reason: 'limit',
      retryAt: new Date(recent[1].getTime() + UNBIND_WINDOW_MS),
    });
    expect(unbindRefusal(r, 3, recent.slice(1), now)).toEqual({
      reason: 'limit',
      retryAt: new Date(recent[1].getTime() + UNBIND_WINDOW_MS),
    });
    expect(unbindRefusal(r, 3, [ago(UNBIND_WINDOW_MS), ago(1000)], now)).toBeNull();
    expect(unbindRefusal(rules({ unbindMaxPer30Days: 0 }), 0, [], now)).toEqual({ reason: 'limit', retryAt: null });
  });

  it('answers the later retry time when both the cooldown and the 30-day maximum hold it back', () => {
    const recent = [ago(29 * 86_400_000), ago(1000)];
    const limitFirst = unbindRefusal(rules({ unbindMaxPer30Days: 1, unbindCooldownSeconds: 60 }), 2, recent, now);
    expect(limitFirst).toEqual({ reason: 'limit', retryAt: new Date(recent[1].getTime() + UNBIND_WINDOW_MS) });
    const cooldownFirst = unbindRefusal(rules({ unbindMaxPer30Days: 2, unbindCooldownSeconds: 30 * 86_400 }), 2, recent, now);
    expect(cooldownFirst).toEqual({ reason: 'cooldown', retryAt: new Date(recent[1].getTime() + UNBIND_WINDOW_MS) });
  });
});
