import { useQuery } from '@tanstack/react-query';
import { Button, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useServerPage } from '../../components/use-server-page';
import { refusalListQuery, type Refusal } from './checkout-queries';
const texts = 'selling.refusals';

/** The refused gateway notifications, newest first: all of them, or one checkout's (keyed by it: a new filter starts on page 1). */
export function RefusalsTable({
  projectId,
  checkoutId,
  onCheckout,
}: {
  projectId: string;
  checkoutId?: string;
  onCheckout: (checkoutId?: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const paging = useServerPage();
  const list = useQuery(refusalListQuery(projectId, checkoutId, paging.query));

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      {checkoutId && (
        <Tag closable className="block-gap" onClose={() => onCheckout(undefined)} data-testid="refusals-filter">
          {t(`${texts}.only`, { id: checkoutId })}
        </Tag>
      )}
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Refusal>
        rowKey="id"
        size="small"
        className="payment-refusals"
        loading={list.isPending}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          { title: t(`${texts}.at`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: t(`${texts}.provider`),
            dataIndex: 'provider',
            render: (name: string) => t(`selling.payments.providers.${name}`, { defaultValue: name }),
          },
          {
            title: t(`${texts}.reason`),
            dataIndex: 'reason',
            render: (reason: string) => <Tag color="red">{t(`${texts}.reasons.${reason}`, { defaultValue: reason })}</Tag>,
          },
          { title: t(`${texts}.detail`), dataIndex: 'detail', render: (detail: string | null) => detail ?? '' },
          {
            title: t(`${texts}.checkout`),
            dataIndex: 'checkout_id',
            render: (id: string | null) =>
              id ? (
                <Button size="small" type="link" onClick={() => onCheckout(id)} title={id}>
                  {id.slice(0, 8)}
                </Button>
              ) : (
                '—'
              ),
          },
          { title: t(`${texts}.reference`), dataIndex: 'reference', render: (ref: string | null) => ref ?? '—' },
          { title: t(`${texts}.clientIp`), dataIndex: 'client_ip', render: (ip: string | null) => ip ?? '—' },
        ]}
      />
    </>
  );
}
