import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { agentSalesQuery, localDay, SALES_DAYS } from './agent-queries';
import { useTypeNames } from './agent-labels';
import { SalesSummary } from './SalesSummary';

/** One agent's sales of the last 30 days: in all, per card type and per day. */
export function AgentSales({
  agentId,
  projectIds,
  amountLabel,
}: {
  agentId: string;
  projectIds: string[];
  amountLabel?: string;
}) {
  const { t } = useTranslation();
  const from = localDay(SALES_DAYS - 1);
  const to = localDay(0);
  const sales = useQuery(agentSalesQuery(agentId, from, to));
  const typeName = useTypeNames(projectIds);
  return (
    <>
      <Typography.Paragraph type="secondary">
        {t('agents.sales.window', { from, to, zone: sales.data?.time_zone ?? '…' })}
      </Typography.Paragraph>
      {sales.error && <ErrorAlert error={sales.error} />}
      <SalesSummary
        items={sales.data?.items ?? []}
        loading={sales.isPending}
        breakdowns={['type', 'day']}
        agentName={() => ''}
        typeName={typeName}
        amountLabel={amountLabel}
      />
    </>
  );
}
