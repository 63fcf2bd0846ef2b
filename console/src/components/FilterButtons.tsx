import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/** The end of a list's filter form: Search submits it, Reset shows the list without filters. */
export function FilterButtons({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button type="primary" htmlType="submit">
        {t('common.search')}
      </Button>
      <Button onClick={onReset}>{t('common.reset')}</Button>
    </Space>
  );
}
