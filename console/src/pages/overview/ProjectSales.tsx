import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/use-session';
import { allAgentsQuery, type SalesItem } from '../agents/agent-queries';
import { useTypeNames } from '../agents/agent-labels';
import { SalesSummary } from '../agents/SalesSummary';

/** The project's sales of the Overview's days (the stats answer's `sales`, from counters): in all, per agent, per card type, per day. */
export function ProjectSales({
  projectId,
  items,
  loading,
  days,
}: {
  projectId: string;
  items: SalesItem[];
  loading: boolean;
  days: number;
}) {
  const { t } = useTranslation();
  const agents = useQuery({ ...allAgentsQuery(), enabled: useSession()?.role !== 'agent' });
  const typeName = useTypeNames([projectId]);
  const names = new Map((agents.data?.items ?? []).map((agent) => [agent.id, agent.username]));
  const agentName = (id: string | null) => (id === null ? t('agents.sales.own') : (names.get(id) ?? id.slice(0, 8)));
  return (
    <div data-testid="project-sales">
      <Typography.Title level={2} className="section-title">
        {t('agents.sales.overviewTitle', { days })}
      </Typography.Title>
      <SalesSummary
        items={items}
        loading={loading}
        breakdowns={['agent', 'type', 'day']}
        agentName={agentName}
        typeName={typeName}
      />
    </div>
  );
}
