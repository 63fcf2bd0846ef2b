import { useTranslation } from 'react-i18next';

/** An amount in integer cents of the given currency, in the console's language (`¥19.90`, `CN¥19.90`). */
export function useAmount(): (cents: number, currency: string) => string {
  const { i18n } = useTranslation();
  return (cents, currency) =>
    new Intl.NumberFormat(i18n.language, { style: 'currency', currency, minimumFractionDigits: 2 }).format(cents / 100);
}
