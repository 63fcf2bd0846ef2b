import { ShoppingCartOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAllowance, useMoney } from '../card-types/card-type-labels';
import { AgentRights } from '../agents/agent-labels';
import { meQuery, myCardTypesQuery, type SellableType } from './me-queries';
import { OrderModal } from './OrderModal';

/**
 * An agent's home: its balance and terms, and the card types it may sell with its price for each,
 * each with **Order**. What it orders is debited from the balance in the same step.
 */
export function ShopPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const allowance = useAllowance();
  const navigate = useNavigate();
  const me = useQuery(meQuery());
  const types = useQuery(myCardTypesQuery());
  const [ordering, setOrdering] = useState<SellableType | null>(null);
  const texts = 'agents.shop';

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      {me.error && <ErrorAlert error={me.error} />}
      <Row gutter={[16, 16]} className="block-gap">
        <Col xs={24} md={8}>
          <Card>
            <Statistic
              title={t(`${texts}.balance`)}
              value={me.data ? money(me.data.balance_cents) : '…'}
              loading={me.isPending}
              data-testid="agent-balance"
            />
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card>
            <Statistic title={t(`${texts}.discount`)} value={me.data?.discount_percent ?? 0} suffix="%" loading={me.isPending} />
          </Card>
        </Col>
        <Col xs={12} md={8}>
          <Card title={t(`${texts}.rights`)} size="small" loading={me.isPending}>
            {me.data && <AgentRights agent={me.data} />}
          </Card>
        </Col>
      </Row>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      {types.error && <ErrorAlert error={types.error} />}
      <Table<SellableType>
        rowKey="id"
        loading={types.isPending}
        dataSource={types.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          {
            title: t(`${texts}.type`),
            dataIndex: 'name',
            render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
          },
          { title: t(`${texts}.project`), dataIndex: 'project_name' },
          { title: t(`${texts}.allowance`), key: 'allowance', render: (_: unknown, type: SellableType) => allowance(type) },
          { title: t('cardTypes.devices'), dataIndex: 'device_limit' },
          {
            title: t('cardTypes.features'),
            dataIndex: 'features',
            render: (features: string[]) =>
              features.length ? (
                <Space size={[0, 4]} wrap>
                  {features.map((name) => (
                    <Tag key={name}>{name}</Tag>
                  ))}
                </Space>
              ) : (
                '—'
              ),
          },
          {
            title: t(`${texts}.listPrice`),
            dataIndex: 'price_cents',
            align: 'right' as const,
            render: (cents: number) => <Typography.Text type="secondary">{money(cents)}</Typography.Text>,
          },
          {
            title: t(`${texts}.yourPrice`),
            dataIndex: 'agent_price_cents',
            align: 'right' as const,
            render: (cents: number) => <Typography.Text strong>{money(cents)}</Typography.Text>,
          },
          {
            title: t('common.actions'),
            key: 'order',
            render: (_: unknown, type: SellableType) => (
              <Button
                type="primary"
                size="small"
                icon={<ShoppingCartOutlined />}
                disabled={!me.data}
                aria-label={`${t(`${texts}.order`)} ${type.name}`}
                onClick={() => setOrdering(type)}
              >
                {t(`${texts}.order`)}
              </Button>
            ),
          },
        ]}
      />
      {ordering && me.data && (
        <OrderModal
          type={ordering}
          balanceCents={me.data.balance_cents}
          onClose={() => setOrdering(null)}
          onShowCards={(batchId) =>
            void navigate(`/agent/cards?project_id=${ordering.project_id}${batchId ? `&batch_id=${batchId}` : ''}`)
          }
        />
      )}
    </>
  );
}
