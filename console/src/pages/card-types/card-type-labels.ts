import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format';
import { fromCents, type CardType } from './card-type-form';

/** A price in integer cents as an amount with two decimals, in the console's language. */
export function useMoney(): (cents: number) => string {
  const { i18n } = useTranslation();
  return (cents) =>
    new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(fromCents(cents));
}

/** A type's validity or logins in words: "30 days", "Permanent", "10 logins", "10 logins, within 30 days". */
export function useAllowance(): (type: Pick<CardType, 'kind' | 'duration_seconds' | 'uses'>) => string {
  const { t } = useTranslation();
  const format = useFormat();
  return (type) => {
    if (type.kind !== 'count') return format.duration(type.duration_seconds);
    const uses = t('cardTypes.uses', { count: type.uses ?? 0 });
    return type.duration_seconds ? t('cardTypes.usesAndValidity', { uses, validity: format.span(type.duration_seconds) }) : uses;
  };
}
