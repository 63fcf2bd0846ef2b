const formatters = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD HH:MM:SS` in the given time zone (the spec's timestamp form). */
export function formatLocalTime(date: Date, timeZone: string): string {
  // UTC (the default zone) needs no ICU: the ISO form is the same text.
  if (timeZone === 'UTC') return date.toISOString().slice(0, 19).replace('T', ' ');
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** What a permanent card shows as its expiry: a date no client will ever reach. */
export const PERMANENT_EXPIRY = '9999-12-31 23:59:59';

export function unixSeconds(date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** Minutes the zone is ahead of UTC at `date` (negative west of Greenwich). */
function offsetMinutes(date: Date, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  const [day, time] = formatLocalTime(date, timeZone).split(' ');
  const wall = Date.parse(`${day}T${time}Z`);
  return Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * ISO 8601 with the zone's offset at that instant, `2026-11-29T12:00:00+08:00`: the same wall time
 * as {@link formatLocalTime} in the same zone, so both name one instant (`+00:00` in UTC).
 */
export function formatIsoTime(date: Date, timeZone: string): string {
  return `${formatLocalTime(date, timeZone).replace(' ', 'T')}${offsetText(offsetMinutes(date, timeZone))}`;
}

/** The permanent expiry with the zone's offset: the same wall time as PERMANENT_EXPIRY, in that zone. */
export function permanentExpiryIso(timeZone: string): string {
  return `${PERMANENT_EXPIRY.replace(' ', 'T')}${offsetText(offsetMinutes(new Date(Date.UTC(9999, 11, 31, 12)), timeZone))}`;
}

type TimeText<T> = T extends Date ? string : string | null;
/** Each time of a client answer as the spec writes it (`name`) and with its offset (`name_iso`). */
export type ClientTimes<T extends Record<string, Date | null>> = { [P in keyof T & string]: TimeText<T[P]> } & {
  [P in keyof T & string as `${P}_iso`]: TimeText<T[P]>;
};

/**
 * The one place client answers' times are written (docs/protocol.md, "Times and zones"): every
 * `name` keeps the spec's `YYYY-MM-DD HH:MM:SS` in APP_TIMEZONE and gains `name_iso`, the same
 * instant in ISO 8601 with the offset; a null time is null in both.
 */
export function clientTimes<T extends Record<string, Date | null>>(timeZone: string, times: T): ClientTimes<T> {
  const out: Record<string, string | null> = {};
  for (const [name, date] of Object.entries(times)) {
    out[name] = date ? formatLocalTime(date, timeZone) : null;
    out[`${name}_iso`] = date ? formatIsoTime(date, timeZone) : null;
  }
  return out as ClientTimes<T>;
}
