import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <Spin description={t('app.loading')} />
    </div>
  );
}
