import { useTranslation } from 'react-i18next';
import { useFormat } from '../../components/format';
import { type CardType } from './card-type-queries';

/** The console's one money formatter, where the pages that show prices have always found it. */
export { useMoney } from '../../components/format';

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
