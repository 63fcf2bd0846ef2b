import { formatLocalTime } from './time';

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
