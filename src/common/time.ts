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
