import { clientTimes, formatIsoTime, formatLocalTime, permanentExpiryIso } from './time';

describe(formatLocalTime.name, () => {
  const instant = new Date('2026-03-08T23:05:09.987Z');

  it('writes YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(formatLocalTime(instant, 'UTC')).toBe('2026-03-08 23:05:09');
  });

  it('writes the wall-clock time of another zone, across the date line', () => {
    expect(formatLocalTime(instant, 'Asia/Shanghai')).toBe('2026-03-09 07:05:09');
    expect(formatLocalTime(instant, 'America/New_York')).toBe('2026-03-08 19:05:09');
  });

  it('agrees with the ICU path for UTC at midnight', () => {
    expect(formatLocalTime(new Date('2026-01-01T00:00:00Z'), 'UTC')).toBe('2026-01-01 00:00:00');
    expect(formatLocalTime(new Date('2026-01-01T00:00:00Z'), 'Etc/UTC')).toBe('2026-01-01 00:00:00');
  });
});

describe(formatIsoTime.name, () => {
  const at = new Date('2026-11-29T04:05:06.789Z');

  it('writes the wall time of formatLocalTime with the offset of that instant', () => {
    expect(formatIsoTime(at, 'UTC')).toBe('2026-11-29T04:05:06+00:00');
    expect(formatIsoTime(at, 'Asia/Shanghai')).toBe('2026-11-29T12:05:06+08:00');
    expect(formatIsoTime(at, 'America/New_York')).toBe('2026-11-28T23:05:06-05:00');
    expect(formatIsoTime(at, 'Asia/Kolkata')).toBe('2026-11-29T09:35:06+05:30');
    expect(formatIsoTime(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
  });

  it('names the same instant as the spec form read in its zone', () => {
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kathmandu', 'Europe/London']) {
      expect(Date.parse(formatIsoTime(at, zone))).toBe(Date.parse('2026-11-29T04:05:06Z'));
    }
  });
});

describe(clientTimes.name, () => {
  it('gives every time its _iso sibling, null for null', () => {
    const at = new Date('2026-11-29T04:05:06Z');
    expect(clientTimes('Asia/Shanghai', { expires_at: at, ended_at: null })).toEqual({
      expires_at: '2026-11-29 12:05:06',
      expires_at_iso: '2026-11-29T12:05:06+08:00',
      ended_at: null,
      ended_at_iso: null,
    });
  });

  it('writes the permanent expiry with the zone offset', () => {
    expect(permanentExpiryIso('Asia/Shanghai')).toBe('9999-12-31T23:59:59+08:00');
    expect(permanentExpiryIso('UTC')).toBe('9999-12-31T23:59:59+00:00');
  });
});
