import { useQuery } from '@tanstack/react-query';
import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useServerPage } from '../../components/use-server-page';
import { useMoney } from '../card-types/card-type-labels';
import { ledgerQuery, type LedgerEntry, type LedgerKind } from './agent-queries';

const KIND_COLORS: Record<LedgerKind, string> = {
  credit: 'green',
  debit: 'orange',
  refund: 'blue',
  commission: 'cyan',
  clawback: 'red',
};

/** An amount with its sign, so money in and money out read apart at a glance. */
export function SignedMoney({ cents }: { cents: number }) {
  const money = useMoney();
  return (
    <Typography.Text
      type={cents < 0 ? 'danger' : 'success'}
    >{`${cents < 0 ? '−' : '+'}${money(Math.abs(cents))}`}</Typography.Text>
  );
}

/** An agent's ledger, newest first: each change of its balance with the balance it left (decisions §19). */
export function LedgerTable({ agentId }: { agentId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const money = useMoney();
  const paging = useServerPage();
  const ledger = useQuery(ledgerQuery(agentId, paging.query.page, paging.query.page_size));
  const texts = 'agents.ledger';
  return (
    <>
      {ledger.error && <ErrorAlert error={ledger.error} />}
      <Table<LedgerEntry>
        rowKey="id"
        size="small"
        data-testid="ledger"
        loading={ledger.isFetching}
        dataSource={ledger.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={paging.pagination(ledger.data?.total)}
        columns={[
          { title: t(`${texts}.time`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: t(`${texts}.kind`),
            dataIndex: 'kind',
            render: (kind: LedgerKind) => <Tag color={KIND_COLORS[kind]}>{t(`${texts}.kinds.${kind}`)}</Tag>,
          },
          {
            title: t(`${texts}.amount`),
            dataIndex: 'amount_cents',
            align: 'right' as const,
            render: (cents: number) => <SignedMoney cents={cents} />,
          },
          {
            title: t(`${texts}.balanceAfter`),
            dataIndex: 'balance_after_cents',
            align: 'right' as const,
            render: (cents: number) => money(cents),
          },
          {
            title: t(`${texts}.order`),
            dataIndex: 'order_id',
            render: (orderId: string | null) =>
              orderId ? (
                <Typography.Text code copyable>
                  {orderId}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          { title: t(`${texts}.note`), dataIndex: 'note', render: (note: string | null) => note || '—' },
        ]}
      />
    </>
  );
}
