import { DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Card, CardStatus } from '../../api/client';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { ListFilters, useListPage } from '../../components/list-page';
import { useProjectOptions, useTypeNames } from '../agents/agent-labels';
import { CardAllowance, CardStatusTag } from '../cards/card-labels';
import { CardFilterFields } from '../cards/CardFilterFields';
import {
  MY_CARD_FILTERS,
  downloadMyCardsCsv,
  meQuery,
  myCardsQuery,
  setMyCardStatus,
  unbindMyCardDevice,
  type MyCardFilters,
} from './me-queries';

/**
 * The cards the signed-in agent ordered: filtered by project, status, code and order batch (in the
 * address), paged, exported as CSV; ban and unban, unbind a device, where its rights allow.
 */
export function MyCardsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const confirmDanger = useConfirmDanger();
  const queries = useQueryClient();
  const cards = useListPage<MyCardFilters>(MY_CARD_FILTERS);
  const me = useQuery(meQuery());
  const list = useQuery(myCardsQuery(cards.filters, cards.page, cards.pageSize));
  const projects = useProjectOptions();
  const typeName = useTypeNames([]);
  const refresh = () => queries.invalidateQueries({ queryKey: ['agents', 'me', 'cards'] });
  const exportCsv = useMutation({
    mutationFn: () => downloadMyCardsCsv(cards.filters),
    onSuccess: () => void message.success(t('cards.exported')),
    onError: notifyError,
  });
  const setStatus = useMutation({
    mutationFn: ({ card, status }: { card: Card; status: 'banned' | 'active' }) => setMyCardStatus(card, status),
    onSuccess: (card) => {
      void message.success(t(card.status === 'banned' ? 'cards.banned' : 'cards.unbanned'));
      return refresh();
    },
    onError: notifyError,
  });
  const unbind = useMutation({
    mutationFn: ({ card, machine }: { card: Card; machine: string }) => unbindMyCardDevice(card, machine),
    onSuccess: () => {
      void message.success(t('cards.unbound'));
      return refresh();
    },
    onError: notifyError,
  });
  const canBan = me.data?.can_ban === true;
  const canUnbind = me.data?.can_unbind === true;
  const projectOptions = (me.data?.project_ids ?? []).map((id) => ({ value: id, label: projects.nameOf(id) }));

  const devices = (card: Card) => (
    <Space size={[0, 4]} wrap>
      {card.devices.length === 0 && <Typography.Text type="secondary">{`0 / ${card.device_limit}`}</Typography.Text>}
      {card.devices.map((device) => (
        <Tag
          key={device.machine_code}
          closable={canUnbind}
          closeIcon={canUnbind ? undefined : false}
          onClose={(event) => {
            event.preventDefault();
            confirmDanger({
              title: t('cards.unbindTitle', { machine: device.machine_code }),
              content: t('cards.unbindText'),
              okText: t('cards.unbind'),
              onOk: () => unbind.mutateAsync({ card, machine: device.machine_code }),
            });
          }}
        >
          {device.machine_code}
        </Tag>
      ))}
    </Space>
  );

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('agents.myCards.title')}</Typography.Title>
        <Button icon={<DownloadOutlined />} onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
          {t('cards.export')}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t('agents.myCards.help')}</Typography.Paragraph>
      <ListFilters list={cards} name="my-card-filters">
        {projectOptions.length > 1 && (
          <Form.Item name="project_id">
            <Select
              aria-label={t('agents.myCards.project')}
              placeholder={t('agents.myCards.project')}
              allowClear
              style={{ width: 180 }}
              options={projectOptions}
            />
          </Form.Item>
        )}
        <CardFilterFields />
      </ListFilters>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Card>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('cards.empty') }}
        pagination={cards.pagination(list.data?.total, [20, 50, 100])}
        columns={[
          {
            title: t('cards.code'),
            dataIndex: 'code',
            render: (code: string) => <Typography.Text copyable>{code}</Typography.Text>,
          },
          { title: t('cards.status'), dataIndex: 'status', render: (status: CardStatus) => <CardStatusTag status={status} /> },
          {
            title: t('cardTypes.column'),
            dataIndex: 'card_type_id',
            render: (id: number | null) => (id === null ? '—' : typeName(id)),
          },
          { title: t('cards.duration'), key: 'allowance', render: (_: unknown, card: Card) => <CardAllowance card={card} /> },
          { title: t('cards.devices'), key: 'devices', render: (_: unknown, card: Card) => devices(card) },
          {
            title: t('cards.activated'),
            dataIndex: 'activated_at',
            responsive: ['md' as const],
            render: (at: string | null) => format.dateTime(at),
          },
          {
            title: t('cards.expires'),
            dataIndex: 'expires_at',
            responsive: ['md' as const],
            render: (at: string | null) => format.dateTime(at, '—'),
          },
          {
            title: t('cardsManage.created'),
            dataIndex: 'created_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          ...(canBan
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, card: Card) =>
                    card.status === 'banned' ? (
                      <Button
                        size="small"
                        aria-label={`${t('cards.unban')} ${card.code}`}
                        onClick={() => setStatus.mutate({ card, status: 'active' })}
                      >
                        {t('cards.unban')}
                      </Button>
                    ) : (
                      <Button
                        size="small"
                        danger
                        aria-label={`${t('cards.ban')} ${card.code}`}
                        onClick={() =>
                          confirmDanger({
                            title: t('cards.banTitle'),
                            content: t('cards.banText'),
                            okText: t('cards.ban'),
                            onOk: () => setStatus.mutateAsync({ card, status: 'banned' }),
                          })
                        }
                      >
                        {t('cards.ban')}
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
