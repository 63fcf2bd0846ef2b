import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../i18n';

/** The language of the console; i18next remembers the choice in localStorage. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Select
      aria-label={t('app.language')}
      data-testid="language-switch"
      value={i18n.language}
      onChange={(language: string) => void i18n.changeLanguage(language)}
      options={LANGUAGES.map(({ code, label }) => ({ value: code, label }))}
      popupMatchSelectWidth={false}
      variant="borderless"
    />
  );
}
