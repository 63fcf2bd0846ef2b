import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { isSuccessCode } from './log-queries';

/** A request's result: success, or the refusal's catalog code with its text in the chosen language. */
export function ResultTag({ code }: { code: number }) {
  const { t } = useTranslation();
  if (isSuccessCode(code)) return <Tag color="green">{t('requests.success')}</Tag>;
  return (
    <Tag color="red" title={String(code)}>
      {code} · {t(`catalog.${code}`, { defaultValue: String(code) })}
    </Tag>
  );
}
