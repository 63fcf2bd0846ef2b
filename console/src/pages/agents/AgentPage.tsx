import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Space, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSession } from '../../app/use-session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { PageLoading } from '../../components/PageLoading';
import { useMoney } from '../card-types/card-type-labels';
import { AgentRights, AgentStatusTag, useProjectOptions } from './agent-labels';
import { agentQuery } from './agent-queries';
import { AgentPrices } from './AgentPrices';
import { AgentSales } from './AgentSales';
import { CreditModal } from './CreditModal';
import { LedgerTable } from './LedgerTable';

/** One agent: its terms and balance, **Credit or debit**, its sales, its ledger and its prices per card type. */
export function AgentPage() {
  const { t } = useTranslation();
  const { agentId = '' } = useParams();
  const money = useMoney();
  const format = useFormat();
  const agent = useQuery(agentQuery(agentId));
  const projects = useProjectOptions();
  const [crediting, setCrediting] = useState(false);
  const byAgent = useSession()?.role === 'agent';
  const texts = 'agents.list';
  if (agent.isPending) return <PageLoading />;
  if (agent.error) return <ErrorAlert error={agent.error} />;
  const shown = agent.data;

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('agents.detail.title', { name: shown.username })}</Typography.Title>
        <Space wrap>
          <Link to="/agents">{t(byAgent ? 'agents.detail.backSub' : 'agents.detail.back')}</Link>
          <Button type="primary" onClick={() => setCrediting(true)}>
            {t(`${texts}.credit`)}
          </Button>
        </Space>
      </div>
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        className="block-gap"
        items={[
          {
            key: 'balance',
            label: t(`${texts}.balance`),
            children: (
              <Typography.Text strong data-testid="agent-balance">
                {money(shown.balance_cents)}
              </Typography.Text>
            ),
          },
          { key: 'status', label: t(`${texts}.status`), children: <AgentStatusTag status={shown.status} /> },
          { key: 'level', label: t(`${texts}.level`), children: t('agents.levelN', { level: shown.level }) },
          { key: 'discount', label: t(`${texts}.discount`), children: `${shown.discount_percent}%` },
          {
            key: 'projects',
            label: t(`${texts}.projects`),
            children: (
              <Space size={[0, 4]} wrap>
                {shown.project_ids.map((id) => (
                  <Tag key={id}>{projects.nameOf(id)}</Tag>
                ))}
              </Space>
            ),
          },
          { key: 'rights', label: t(`${texts}.rights`), children: <AgentRights agent={shown} /> },
          {
            key: 'lowBalance',
            label: t('agents.form.lowBalance.label'),
            children: shown.low_balance_cents === null ? '—' : money(shown.low_balance_cents),
          },
          { key: 'created', label: t('agents.detail.created'), children: format.dateTime(shown.created_at) },
        ]}
      />
      <Tabs
        items={[
          {
            key: 'sales',
            label: t('agents.sales.title'),
            children: <AgentSales agentId={shown.id} projectIds={shown.project_ids} />,
          },
          { key: 'ledger', label: t('agents.ledger.title'), children: <LedgerTable agentId={shown.id} /> },
          { key: 'prices', label: t('agentPrices.tab'), children: <AgentPrices agent={shown} /> },
        ]}
      />
      {crediting && <CreditModal agent={shown} onClose={() => setCrediting(false)} />}
    </>
  );
}
