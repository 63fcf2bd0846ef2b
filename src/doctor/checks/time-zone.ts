import { readFileSync } from 'node:fs';
import { AppConfig } from '../../config/app-config';
import { Finding, ok, warn } from './finding';

/** Minutes east of UTC that `zone` is at `at` (Asia/Shanghai: 480). */
export function utcOffsetMinutes(zone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /^GMT([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(name ?? '');
  if (!match) return 0; // "GMT": no offset
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
}

/** Whether days in `zone` begin and end when UTC's do, all year (UTC, Etc/UTC, GMT, Africa/Abidjan…). */
export function countsDaysAsUtc(zone: string, now: Date = new Date()): boolean {
  const year = now.getUTCFullYear();
  return [0, 6].every((month) => utcOffsetMinutes(zone, new Date(Date.UTC(year, month, 1))) === 0);
}

/**
 * The host's own zone: the process's (TZ, else /etc/localtime, as Node's Intl reads them), and where
 * that is UTC without TZ saying so, /etc/timezone's (Debian and Ubuntu write both when an operator
 * sets the zone). Null when neither names one.
 */
export function hostTimeZone(
  env: NodeJS.ProcessEnv = process.env,
  processZone: string | null = Intl.DateTimeFormat().resolvedOptions().timeZone || null,
  readFile: (path: string) => string = readText,
): string | null {
  if (processZone && (env.TZ || !countsDaysAsUtc(processZone))) return processZone;
  try {
    const named = readFile('/etc/timezone').trim();
    return named && isZone(named) ? named : processZone;
  } catch {
    return processZone;
  }
}

function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * APP_TIMEZONE decides where a day begins (the console's "today", statistics' days, daily quotas)
 * and the zone of every time in client answers. Left at its default UTC on a host that keeps another
 * zone (a server in China on Asia/Shanghai), "today" is off by the offset (8 hours there).
 */
export function checkTimeZone(config: AppConfig, env: NodeJS.ProcessEnv, host: string | null = hostTimeZone(env)): Finding[] {
  const zone = config.APP_TIMEZONE;
  if (!countsDaysAsUtc(zone)) return [ok('time zone', `APP_TIMEZONE ${zone}: days and client times are counted in it`)];
  if (!host || countsDaysAsUtc(host)) return [ok('time zone', `APP_TIMEZONE ${zone}, as this host`)];
  if (env.APP_TIMEZONE) {
    return [ok('time zone', `APP_TIMEZONE ${zone} (set so), on a host in ${host}: days turn at UTC midnight`)];
  }
  const offset = utcOffsetMinutes(host, new Date());
  const minutes = ((offset % 1440) + 1440) % 1440;
  const local = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return [
    warn(
      'time zone',
      `APP_TIMEZONE is UTC (the default) but this host's zone is ${host}: "today" in the console, statistics' days and daily quotas turn at UTC midnight (${local} in ${host}), and client answers give UTC times`,
      `set APP_TIMEZONE=${host}, the zone your authors count days in (in China: APP_TIMEZONE=Asia/Shanghai)`,
    ),
  ];
}
