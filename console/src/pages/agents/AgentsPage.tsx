import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/use-session';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useServerPage } from '../../components/use-server-page';
import { useMoney } from '../card-types/card-type-labels';
import { meQuery } from '../agent/me-queries';
import { AgentRights, AgentStatusTag, useProjectOptions } from './agent-labels';
import { agentKeys, agentListQuery, allAgentsQuery, setAgentStatus, type Agent } from './agent-queries';
import { CreateAgentModal } from './CreateAgentModal';
import { CreditModal } from './CreditModal';

/**
 * An author's agents (resellers, decisions §19), or an agent's own sub-agents: balance, status,
 * level and parent, projects, discount and rights; new agent, credit or debit, disable and enable.
 * Each opens to its ledger and sales.
 */
export function AgentsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const money = useMoney();
  const role = useSession()?.role;
  const byAgent = role === 'agent';
  const me = useQuery({ ...meQuery(), enabled: byAgent });
  const paging = useServerPage();
  const [q, setQ] = useState('');
  const list = useQuery(agentListQuery(paging.query.page, paging.query.page_size, q));
  const everyone = useQuery(allAgentsQuery());
  const projects = useProjectOptions();
  const [creating, setCreating] = useState(false);
  const [crediting, setCrediting] = useState<Agent | null>(null);
  const queries = useQueryClient();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const texts = 'agents.list';
  const names = new Map(
    [...(everyone.data?.items ?? []), ...(me.data ? [me.data] : [])].map((agent) => [agent.id, agent.username]),
  );
  const setStatus = useMutation({
    mutationFn: ({ agent, status }: { agent: Agent; status: Agent['status'] }) => setAgentStatus(agent.id, status),
    onSuccess: (agent) => {
      void message.success(
        t(agent.status === 'active' ? `${texts}.enabledNow` : `${texts}.disabledNow`, { name: agent.username }),
      );
      return queries.invalidateQueries({ queryKey: agentKeys.all });
    },
    onError: notifyError,
  });
  // An author makes agents; an agent sub-agents only with the right to, within its own projects (a platform admin watches).
  const mayCreate = role === 'author' || me.data?.can_create_sub_agents === true;
  const projectOptions =
    byAgent && me.data ? me.data.project_ids.map((id) => ({ value: id, label: projects.nameOf(id) })) : projects.options;

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(byAgent ? `${texts}.subTitle` : `${texts}.title`)}</Typography.Title>
        {mayCreate && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t(`${texts}.new`)}
          </Button>
        )}
      </div>
      <Typography.Paragraph type="secondary">{t(byAgent ? `${texts}.subHelp` : `${texts}.help`)}</Typography.Paragraph>
      <Input.Search
        className="filters"
        style={{ maxWidth: 320 }}
        allowClear
        placeholder={t(`${texts}.search`)}
        aria-label={t(`${texts}.search`)}
        onSearch={(value) => {
          setQ(value.trim());
          paging.first();
        }}
      />
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Agent>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(byAgent ? `${texts}.subEmpty` : `${texts}.empty`) }}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          {
            title: t(`${texts}.username`),
            dataIndex: 'username',
            render: (name: string, agent: Agent) => <Link to={`/agents/${agent.id}`}>{name}</Link>,
          },
          {
            title: t(`${texts}.status`),
            dataIndex: 'status',
            render: (status: Agent['status']) => <AgentStatusTag status={status} />,
          },
          {
            title: t(`${texts}.balance`),
            dataIndex: 'balance_cents',
            align: 'right' as const,
            render: (cents: number) => <Typography.Text strong>{money(cents)}</Typography.Text>,
          },
          {
            title: t(`${texts}.level`),
            key: 'level',
            render: (_: unknown, agent: Agent) => (
              <>
                {t('agents.levelN', { level: agent.level })}
                {agent.parent_agent_id && (
                  <Typography.Text type="secondary">
                    {' '}
                    · {t(`${texts}.under`, { name: names.get(agent.parent_agent_id) ?? '…' })}
                  </Typography.Text>
                )}
              </>
            ),
          },
          {
            title: t(`${texts}.projects`),
            dataIndex: 'project_ids',
            render: (ids: string[]) => (
              <Space size={[0, 4]} wrap>
                {ids.map((id) => (
                  <Tag key={id}>{projects.nameOf(id)}</Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t(`${texts}.discount`),
            dataIndex: 'discount_percent',
            align: 'right' as const,
            render: (percent: number) => `${percent}%`,
          },
          { title: t(`${texts}.rights`), key: 'rights', render: (_: unknown, agent: Agent) => <AgentRights agent={agent} /> },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, agent: Agent) => (
              <Space>
                <Button size="small" aria-label={`${t(`${texts}.credit`)} ${agent.username}`} onClick={() => setCrediting(agent)}>
                  {t(`${texts}.credit`)}
                </Button>
                {agent.status === 'active' ? (
                  <Button
                    size="small"
                    danger
                    aria-label={`${t(`${texts}.disable`)} ${agent.username}`}
                    onClick={() =>
                      confirmDanger({
                        title: t(`${texts}.disableTitle`, { name: agent.username }),
                        content: t(`${texts}.disableText`),
                        okText: t(`${texts}.disable`),
                        onOk: () => setStatus.mutateAsync({ agent, status: 'disabled' }),
                      })
                    }
                  >
                    {t(`${texts}.disable`)}
                  </Button>
                ) : (
                  <Button
                    size="small"
                    aria-label={`${t(`${texts}.enable`)} ${agent.username}`}
                    loading={setStatus.isPending && setStatus.variables?.agent.id === agent.id}
                    onClick={() => setStatus.mutate({ agent, status: 'active' })}
                  >
                    {t(`${texts}.enable`)}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {creating && (
        <CreateAgentModal
          projects={projectOptions}
          parents={byAgent ? undefined : everyone.data?.items}
          onClose={() => setCreating(false)}
        />
      )}
      {crediting && <CreditModal agent={crediting} onClose={() => setCrediting(null)} />}
    </>
  );
}
