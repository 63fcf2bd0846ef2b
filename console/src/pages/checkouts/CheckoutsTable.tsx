import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useServerPage } from '../../components/use-server-page';
import { useAmount } from './amount';
import { checkoutListQuery, type Checkout, type CheckoutStatus as Status } from './checkout-queries';

const STATUSES: Status[] = ['pending', 'paid', 'expired', 'failed', 'refund_needed'];
const COLOURS: Record<Status, string> = {
  pending: 'gold',
  paid: 'green',
  expired: 'default',
  failed: 'red',
  refund_needed: 'magenta',
};
const texts = 'selling.checkouts';

/** The checkouts, newest first, filtered by status; a refund_needed one highlighted and explained. */
export function CheckoutsTable({ projectId, onRefusals }: { projectId: string; onRefusals: (checkoutId: string) => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const amount = useAmount();
  const paging = useServerPage();
  const [status, setStatus] = useState<Status>();
  const list = useQuery(checkoutListQuery(projectId, status, paging.query));
  const anyRefund = list.data?.items.some((checkout) => checkout.status === 'refund_needed');

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      <Form layout="inline" className="block-gap">
        <Form.Item label={t(`${texts}.status`)} htmlFor="checkout-status">
          <Select<Status>
            id="checkout-status"
            allowClear
            style={{ width: 180 }}
            placeholder={t(`${texts}.allStatuses`)}
            value={status}
            onChange={(next) => {
              setStatus(next);
              paging.first();
            }}
            options={STATUSES.map((value) => ({ value, label: t(`${texts}.statuses.${value}`) }))}
          />
        </Form.Item>
      </Form>
      {anyRefund && <Alert type="error" showIcon className="block-gap" title={t(`${texts}.refundNeeded`)} />}
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Checkout>
        rowKey="checkout_id"
        size="small"
        className="checkouts"
        loading={list.isPending}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        rowClassName={(checkout) => (checkout.status === 'refund_needed' ? 'checkout-refund-needed' : '')}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          { title: t(`${texts}.created`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: t(`${texts}.status`),
            dataIndex: 'status',
            render: (value: Status) => <Tag color={COLOURS[value]}>{t(`${texts}.statuses.${value}`)}</Tag>,
          },
          {
            title: t(`${texts}.provider`),
            dataIndex: 'provider',
            render: (name: string) => t(`selling.payments.providers.${name}`, { defaultValue: name }),
          },
          {
            title: t(`${texts}.amount`),
            dataIndex: 'amount_cents',
            align: 'right' as const,
            render: (cents: number, checkout) => amount(cents, checkout.currency),
          },
          { title: t(`${texts}.count`), dataIndex: 'count', align: 'right' as const },
          { title: t(`${texts}.email`), dataIndex: 'email' },
          {
            title: t(`${texts}.paid`),
            dataIndex: 'paid_at',
            render: (at: string | null, checkout) => (
              <Space size={4}>
                {format.dateTime(at, '—')}
                {checkout.paid_late && <Tag color="orange">{t(`${texts}.late`)}</Tag>}
              </Space>
            ),
          },
          {
            title: t(`${texts}.order`),
            dataIndex: 'order_id',
            render: (id: string | null) =>
              id ? (
                <Typography.Text code copyable={{ text: id }}>
                  {id.slice(0, 8)}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          { title: t(`${texts}.tradeNo`), dataIndex: 'trade_no', render: (no: string | null) => no ?? '—' },
          {
            title: t(`${texts}.problem`),
            dataIndex: 'problem',
            render: (problem: string | null) => (
              <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }} style={{ marginBottom: 0, maxWidth: 320 }}>
                {problem ?? ''}
              </Typography.Paragraph>
            ),
          },
          {
            title: '',
            key: 'refusals',
            render: (_, checkout) => (
              <Button size="small" type="link" onClick={() => onRefusals(checkout.checkout_id)}>
                {t(`${texts}.refusalsOf`)}
              </Button>
            ),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        <Link to={`/projects/${projectId}/payments`}>{t('selling.payments.title')}</Link>
      </Typography.Paragraph>
    </>
  );
}
