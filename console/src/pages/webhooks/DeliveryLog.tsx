import { ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useServerPage } from '../../components/use-server-page';
import {
  deliveriesKey,
  deliveryListQuery,
  redeliverDelivery,
  type Delivery,
  type DeliveryAttempt as Attempt,
  type Webhook,
} from './webhook-queries';

const STATUS_COLOURS: Record<Delivery['status'], string> = { pending: 'gold', delivered: 'green', failed: 'red' };

/** A 2xx answer is a success (a chat robot may still refuse in its body: the excerpt shows it). */
function HttpStatus({ attempt }: { attempt: Attempt }) {
  const { t } = useTranslation();
  if (attempt.http_status === null) return <Tag color="red">{t('webhooks.log.noAnswer')}</Tag>;
  return <Tag color={attempt.http_status >= 200 && attempt.http_status < 300 ? 'green' : 'red'}>{attempt.http_status}</Tag>;
}

/** Every attempt of one delivery, oldest first: when, the answer's status, how long it took, and what came back (or why nothing did). */
function Attempts({ delivery }: { delivery: Delivery }) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const texts = 'webhooks.log';
  const ms = (value: number) =>
    new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' }).format(value);
  return (
    <Table<Attempt>
      rowKey="attempt"
      size="small"
      pagination={false}
      dataSource={delivery.attempt_log}
      locale={{ emptyText: t(`${texts}.noAttempt`) }}
      aria-label={`${t(`${texts}.eventId`)} ${delivery.event_id}`}
      columns={[
        { title: t(`${texts}.attempt`), dataIndex: 'attempt', width: 80 },
        { title: t(`${texts}.at`), dataIndex: 'attempted_at', render: (at: string) => format.dateTime(at) },
        { title: t(`${texts}.http`), key: 'http', render: (_, attempt) => <HttpStatus attempt={attempt} /> },
        { title: t(`${texts}.duration`), dataIndex: 'duration_ms', render: (value: number) => ms(value) },
        {
          title: t(`${texts}.response`),
          key: 'response',
          render: (_, attempt) => (
            <Typography.Paragraph
              className="webhook-excerpt"
              ellipsis={{ rows: 2, expandable: true }}
              style={{ marginBottom: 0, maxWidth: 520 }}
            >
              {attempt.error ?? attempt.response_excerpt}
            </Typography.Paragraph>
          ),
        },
      ]}
    />
  );
}

/** The endpoint's deliveries, newest first, each expandable to its attempts; any of them can be sent again. */
export function DeliveryLog({ projectId, webhook, onClose }: { projectId: string; webhook: Webhook; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const paging = useServerPage();
  const texts = 'webhooks.log';
  const key = deliveriesKey(projectId, webhook.id);
  const list = useQuery(deliveryListQuery(projectId, webhook.id, paging.query));
  const redeliver = useMutation({
    mutationFn: (delivery: Delivery) => redeliverDelivery(projectId, webhook.id, delivery.id),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: key });
      void message.success(t(`${texts}.redelivered`));
    },
    onError: notifyError,
  });

  return (
    <Card
      className="webhook-log"
      title={t(`${texts}.title`, { url: webhook.url })}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void queries.invalidateQueries({ queryKey: key })}>
            {t(`${texts}.refresh`)}
          </Button>
          <Button onClick={onClose}>{t(`${texts}.close`)}</Button>
        </Space>
      }
    >
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Delivery>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        expandable={{ expandedRowRender: (delivery) => <Attempts delivery={delivery} />, defaultExpandAllRows: false }}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          {
            title: t(`${texts}.type`),
            dataIndex: 'type',
            render: (type: string) => <Typography.Text code>{type}</Typography.Text>,
          },
          {
            title: t(`${texts}.status`),
            dataIndex: 'status',
            render: (status: Delivery['status']) => <Tag color={STATUS_COLOURS[status]}>{t(`${texts}.statuses.${status}`)}</Tag>,
          },
          { title: t(`${texts}.attempts`), dataIndex: 'attempts' },
          { title: t(`${texts}.created`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: t(`${texts}.next`),
            dataIndex: 'next_attempt_at',
            responsive: ['md' as const],
            render: (at: string | null) => format.dateTime(at, '—'),
          },
          {
            title: '',
            key: 'redeliver',
            render: (_, delivery) => (
              <Button
                size="small"
                loading={redeliver.isPending && redeliver.variables?.id === delivery.id}
                aria-label={`${t(`${texts}.redeliver`)} ${delivery.event_id}`}
                onClick={() => redeliver.mutate(delivery)}
              >
                {t(`${texts}.redeliver`)}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
