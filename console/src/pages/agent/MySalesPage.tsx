import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoading } from '../../components/PageLoading';
import { AgentSales } from '../agents/AgentSales';
import { meQuery } from './me-queries';

/** The signed-in agent's own sales of the last 30 days, as its author sees them on its page. */
export function MySalesPage() {
  const { t } = useTranslation();
  const me = useQuery(meQuery());
  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('agentPrices.sales.title')}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{t('agentPrices.sales.help')}</Typography.Paragraph>
      {me.error && <ErrorAlert error={me.error} />}
      {me.isPending ? (
        <PageLoading />
      ) : (
        me.data && <AgentSales agentId={me.data.id} projectIds={me.data.project_ids} amountLabel={t('agentPrices.sales.cost')} />
      )}
    </>
  );
}
