import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { unwrap } from '../api/errors';
import { formatInZone, useTimeZone } from './time-zone';

/** Who is signed in, with the service's CURRENCY: read once, it does not change while the console runs. */
export const identityQuery = queryOptions({
  queryKey: ['auth', 'me'],
  queryFn: () => unwrap(api.GET('/admin/v1/auth/me')),
  staleTime: Infinity,
});

/**
 * Amounts kept in integer cents (prices, balances, the ledger, revenue) with the service's currency
 * sign in the console's language: `¥19.90` in Chinese, `CN¥19.90` in English for CNY. Until the
 * currency is known an amount shows without a sign rather than with a guessed one.
 */
export function useMoney(): (cents: number) => string {
  const { i18n } = useTranslation();
  const currency = useQuery(identityQuery).data?.currency;
  const options: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  const format = new Intl.NumberFormat(i18n.language, currency ? { ...options, style: 'currency', currency } : options);
  return (cents) => format.format(cents / 100);
}

/** The currency's sign alone (`¥`, `CN¥`, `US$`), for an amount typed into a field; empty until known. */
export function useCurrencySign(): string {
  const { i18n } = useTranslation();
  const currency = useQuery(identityQuery).data?.currency;
  if (!currency) return '';
  return (
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
}

/** Units a duration is shown and entered in, largest first. */
export const DURATION_UNITS = [
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number][1];

/**
 * Dates and durations in the console's language. Every date has one format, `2026-03-05 14:07:09`,
 * in the zone the user chose (the header's selector; the browser's zone until then).
 */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const unit = (value: number, name: DurationUnit) =>
    new Intl.NumberFormat(i18n.language, { style: 'unit', unit: name, unitDisplay: 'long' }).format(value);
  /** "1 day 2 hours": at most the two largest units, so 90061 s reads "1 day 1 hour". */
  const span = (seconds: number) => {
    const parts: string[] = [];
    let rest = Math.max(0, Math.round(seconds));
    for (const [size, name] of DURATION_UNITS) {
      if (rest >= size && parts.length < 2) {
        parts.push(unit(Math.floor(rest / size), name));
        rest %= size;
      } else if (parts.length > 0) break;
    }
    return parts.length > 0 ? parts.join(' ') : unit(0, 'second');
  };
  return {
    zone,
    dateTime: (iso: string | null | undefined, empty = t('common.never')) => (iso ? formatInZone(new Date(iso), zone) : empty),
    /** A card's validity: 0 is permanent. */
    duration: (seconds: number) => (seconds === 0 ? t('common.permanent') : span(seconds)),
    span,
    /** How long ago: "3 minutes ago". */
    ago: (iso: string, now = Date.now()) => {
      const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
      const [size, name] = DURATION_UNITS.find(([size]) => seconds >= size) ?? [1, 'second'];
      return new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' }).format(-Math.floor(seconds / size), name);
    },
  };
}
