import { useTranslation } from 'react-i18next';

/** Dates and durations in the console's language. */
export function useFormat() {
  const { t, i18n } = useTranslation();
  const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    dateTime: (iso: string | null | undefined, empty = t('common.never')) => (iso ? dateTime.format(new Date(iso)) : empty),
    duration: (seconds: number) => {
      if (seconds === 0) return t('common.permanent');
      const units = [
        [86400, 'day'],
        [3600, 'hour'],
        [60, 'minute'],
      ] as const;
      const [size, unit] = units.find(([size]) => seconds % size === 0) ?? [1, 'second'];
      return new Intl.NumberFormat(i18n.language, { style: 'unit', unit, unitDisplay: 'long' }).format(seconds / size);
    },
  };
}
