import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { toCents } from '../card-types/card-type-form';
import { useMoney } from '../card-types/card-type-labels';
import { agentKeys, agentPricesQuery, setAgentPrice, type Agent, type AgentPrice } from './agent-queries';
import { useProjectOptions } from './agent-labels';

/** A card type's price, as the API takes it: at most 2^31 − 1 cents. */
const MAX_AMOUNT = 21_474_836.47;
const texts = 'agentPrices';

/**
 * What each type the agent may sell costs it: the list price, less its discount, and its own price
 * where one is set, which replaces the discount for that type. Whoever may change the agent's
 * terms sets and removes them (the service refuses anyone else, and a price below the parent's).
 */
export function AgentPrices({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const projects = useProjectOptions();
  const prices = useQuery(agentPricesQuery(agent.id));
  const [editing, setEditing] = useState<AgentPrice | null>(null);
  const remove = useMutation({
    mutationFn: (row: AgentPrice) => setAgentPrice(agent.id, row.card_type_id, null),
    onSuccess: (_, row) => {
      void message.success(t(`${texts}.removed`, { type: row.name }));
      void queries.invalidateQueries({ queryKey: agentKeys.all });
    },
    onError: notifyError,
  });
  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      {prices.error && <ErrorAlert error={prices.error} />}
      <Table<AgentPrice>
        rowKey="card_type_id"
        data-testid="agent-prices"
        loading={prices.isPending}
        dataSource={prices.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          {
            title: t(`${texts}.type`),
            key: 'type',
            render: (_: unknown, row: AgentPrice) => (
              <Space size={4}>
                <Typography.Text strong>{row.name}</Typography.Text>
                {!row.enabled && <Tag>{t(`${texts}.disabled`)}</Tag>}
              </Space>
            ),
          },
          { title: t('agents.shop.project'), dataIndex: 'project_id', render: (id: string) => projects.nameOf(id) },
          { title: t(`${texts}.listPrice`), dataIndex: 'price_cents', align: 'right' as const, render: money },
          {
            title: t(`${texts}.discountPrice`),
            dataIndex: 'discount_price_cents',
            align: 'right' as const,
            render: (cents: number, row: AgentPrice) =>
              row.own_price_cents === null ? money(cents) : <Typography.Text delete>{money(cents)}</Typography.Text>,
          },
          {
            title: t(`${texts}.ownPrice`),
            dataIndex: 'own_price_cents',
            align: 'right' as const,
            render: (cents: number | null) => (cents === null ? '—' : money(cents)),
          },
          {
            title: t(`${texts}.pays`),
            dataIndex: 'agent_price_cents',
            align: 'right' as const,
            render: (cents: number) => <Typography.Text strong>{money(cents)}</Typography.Text>,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, row: AgentPrice) => (
              <Space size="small">
                <Button size="small" aria-label={`${t(`${texts}.set`)} ${row.name}`} onClick={() => setEditing(row)}>
                  {t(row.own_price_cents === null ? `${texts}.set` : `${texts}.change`)}
                </Button>
                {row.own_price_cents !== null && (
                  <Button
                    size="small"
                    aria-label={`${t(`${texts}.remove`)} ${row.name}`}
                    loading={remove.isPending && remove.variables?.card_type_id === row.card_type_id}
                    onClick={() => remove.mutate(row)}
                  >
                    {t(`${texts}.remove`)}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && <PriceModal agent={agent} row={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** One type's own price for the agent, as an amount with two decimals (sent as integer cents). */
function PriceModal({ agent, row, onClose }: { agent: Agent; row: AgentPrice; onClose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { message } = App.useApp();
  const queries = useQueryClient();
  const [form] = Form.useForm<{ amount: number }>();
  const save = useMutation({
    mutationFn: ({ amount }: { amount: number }) => setAgentPrice(agent.id, row.card_type_id, toCents(amount)),
    onSuccess: () => {
      void message.success(t(`${texts}.saved`, { type: row.name }));
      void queries.invalidateQueries({ queryKey: agentKeys.all });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t(`${texts}.form.title`, { type: row.name, name: agent.username })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<{ amount: number }>
        form={form}
        name="agent-price"
        layout="vertical"
        initialValues={{ amount: row.agent_price_cents / 100 }}
        onFinish={(draft) => save.mutate(draft)}
        disabled={save.isPending}
      >
        <Form.Item
          name="amount"
          label={t(`${texts}.form.label`)}
          extra={t(`${texts}.form.help`, { discounted: money(row.discount_price_cents) })}
          rules={[{ required: true }, { type: 'number', min: 0, max: MAX_AMOUNT }]}
        >
          <InputNumber min={0} max={MAX_AMOUNT} precision={2} autoFocus style={{ width: '100%' }} />
        </Form.Item>
      </Form>
      {save.error && <ErrorAlert error={save.error} />}
    </Modal>
  );
}
