import { registerDecorator, ValidationOptions } from 'class-validator';

/**
 * An instant of the admin card API (filters, expiries, CSV import): ISO 8601 date and time with
 * an explicit offset (`Z` or `±hh:mm`), e.g. `2026-01-31T23:59:59Z`, seconds and fraction optional.
 * A date without a time or an offset is refused: it would be read in some time zone the caller did
 * not name. Years 1970-9999; an impossible calendar date (`2025-02-30`) is refused.
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/;

export const ISO_INSTANT_RULE = 'an ISO 8601 time with an offset, e.g. 2026-01-31T23:59:59Z';

/** The instant `text` stands for, or null when it is not one (see ISO_INSTANT). */
export function parseIsoInstant(text: string): Date | null {
  const m = ISO_INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  // Day 31 of a 30-day month rolls over in Date.UTC: compare to catch it.
  if (new Date(Date.UTC(year, month - 1, day)).getUTCDate() !== day) return null;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** class-validator: a string that `parseIsoInstant` reads. */
export function IsIsoInstant(options: ValidationOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isIsoInstant',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must be ${ISO_INSTANT_RULE}`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && parseIsoInstant(value) !== null },
    });
}
