import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { zhCN } from './zh-CN';

export const LANGUAGES = [
  { code: 'zh-CN', label: '中文' },
  { code: 'en', label: 'English' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Any Chinese the browser prefers reads the zh-CN texts; anything else, English. */
export function supportedLanguage(tag: string | undefined): Language {
  return tag?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

// The choice is remembered in localStorage (a preference, never a secret); first visit: the browser's languages.
void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    supportedLngs: ['en', 'zh-CN'],
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    detection: {
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: 'cardkey.console.language',
      caches: ['localStorage'],
      convertDetectedLanguage: supportedLanguage,
    },
  });

i18n.on('languageChanged', (language) => {
  document.documentElement.lang = language;
});
document.documentElement.lang = i18n.language;

export default i18n;
