import { loadConfig } from '../../config/app-config';
import { checkTimeZone, countsDaysAsUtc, hostTimeZone, utcOffsetMinutes } from './time-zone';

const noFile = () => {
  throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
};

describe('the time zone check ("today" 8 hours off for an author in China)', () => {
  it('reads offsets and tells zones whose days are UTC days', () => {
    expect(utcOffsetMinutes('Asia/Shanghai', new Date('2026-11-28T20:05:00Z'))).toBe(480);
    expect(utcOffsetMinutes('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(-210);
    expect(utcOffsetMinutes('UTC', new Date())).toBe(0);
    for (const zone of ['UTC', 'Etc/UTC', 'GMT', 'Africa/Abidjan']) expect(countsDaysAsUtc(zone)).toBe(true);
    // London is UTC only in winter: its summer days are not UTC days.
    for (const zone of ['Asia/Shanghai', 'Europe/London']) expect(countsDaysAsUtc(zone)).toBe(false);
  });

  it("takes the host's zone from the process, else from /etc/timezone", () => {
    expect(hostTimeZone({}, 'Asia/Shanghai', noFile)).toBe('Asia/Shanghai');
    // UTC in the process but the host names its zone (Debian's /etc/timezone): the host's.
    expect(hostTimeZone({}, 'UTC', () => 'Asia/Shanghai\n')).toBe('Asia/Shanghai');
    // TZ=UTC set for the process: that is the zone it runs in.
    expect(hostTimeZone({ TZ: 'UTC' }, 'UTC', () => 'Asia/Shanghai\n')).toBe('UTC');
    expect(hostTimeZone({}, 'UTC', noFile)).toBe('UTC');
    expect(hostTimeZone({}, 'UTC', () => 'Not/AZone\n')).toBe('UTC');
    expect(hostTimeZone({}, null, noFile)).toBeNull();
  });

  it('warns of the default UTC on a host in another zone, telling operators in China what to set', () => {
    const [finding] = checkTimeZone(loadConfig({}), {}, 'Asia/Shanghai');
    expect(finding).toMatchObject({ check: 'time zone', severity: 'warn' });
    expect(finding.message).toBe(
      `APP_TIMEZONE is UTC (the default) but this host's zone is Asia/Shanghai: "today" in the console, statistics' days and daily quotas turn at UTC midnight (08:00 in Asia/Shanghai), and client answers give UTC times`,
    );
    expect(finding.fix).toBe(
      'set APP_TIMEZONE=Asia/Shanghai, the zone your authors count days in (in China: APP_TIMEZONE=Asia/Shanghai)',
    );
    const [newYork] = checkTimeZone(loadConfig({}), {}, 'America/New_York');
    expect(newYork.message).toMatch(/UTC midnight \((19|20):00 in America\/New_York\)/);
    expect(newYork.fix).toContain('set APP_TIMEZONE=America/New_York');
  });

  it('says nothing to fix when the zone is set, or the host keeps UTC too', () => {
    expect(checkTimeZone(loadConfig({ APP_TIMEZONE: 'Asia/Shanghai' }), {}, 'Asia/Shanghai')).toEqual([
      expect.objectContaining({ severity: 'ok', message: 'APP_TIMEZONE Asia/Shanghai: days and client times are counted in it' }),
    ]);
    expect(checkTimeZone(loadConfig({}), {}, 'Etc/UTC')).toEqual([expect.objectContaining({ severity: 'ok' })]);
    expect(checkTimeZone(loadConfig({}), {}, null)).toEqual([expect.objectContaining({ severity: 'ok' })]);
    // UTC chosen on purpose (APP_TIMEZONE set): noted, not warned of.
    expect(checkTimeZone(loadConfig({ APP_TIMEZONE: 'UTC' }), { APP_TIMEZONE: 'UTC' }, 'Asia/Shanghai')).toEqual([
      expect.objectContaining({ severity: 'ok', message: expect.stringContaining('on a host in Asia/Shanghai') }),
    ]);
  });
});
