import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoading } from '../../components/PageLoading';
import { useMoney } from '../card-types/card-type-labels';
import { LedgerTable } from '../agents/LedgerTable';
import { meQuery } from './me-queries';

/** The signed-in agent's ledger: every credit, order, refund and commission, with the balance each left. */
export function MyLedgerPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const me = useQuery(meQuery());
  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('agents.ledger.title')}</Typography.Title>
        {me.data && (
          <Typography.Text strong data-testid="agent-balance">
            {t('agents.ledger.balance', { amount: money(me.data.balance_cents) })}
          </Typography.Text>
        )}
      </div>
      <Typography.Paragraph type="secondary">{t('agents.ledger.help')}</Typography.Paragraph>
      {me.error && <ErrorAlert error={me.error} />}
      {me.isPending ? <PageLoading /> : me.data && <LedgerTable agentId={me.data.id} />}
    </>
  );
}
