import { useTranslation } from 'react-i18next';
import type { OwnTexts } from '../components/ErrorAlert';
import { storefrontEn } from '../i18n/storefront';

/** The storefront's own words for the refusals a buyer meets (sold out, closed shop, too many tries), in the page's language. */
export function useFailureTexts(): OwnTexts {
  const { t } = useTranslation();
  return Object.fromEntries(Object.keys(storefrontEn.failures).map((code) => [Number(code), t(`storefront.failures.${code}`)]));
}
