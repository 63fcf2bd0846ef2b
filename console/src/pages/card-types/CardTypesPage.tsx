import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useServerPage } from '../../components/use-server-page';
import { cardTypeKeys, cardTypePageQuery, deleteCardType, updateCardType, type CardType } from './card-type-queries';
import { useAllowance, useMoney } from './card-type-labels';
import { CardTypeModal } from './CardTypeModal';

const CARD_TYPE_IN_USE = 11209;

/** A project's card types (decisions §19): what the author sells, with its rules, features and price. */
export function CardTypesPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { projectId = '' } = useParams();
  const money = useMoney();
  const allowance = useAllowance();
  const paging = useServerPage();
  const [editing, setEditing] = useState<CardType | 'new' | null>(null);
  const client = useQueryClient();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const key = cardTypeKeys.ofProject(projectId);
  const list = useQuery(cardTypePageQuery(projectId, paging.query));
  const setEnabled = useMutation({
    mutationFn: ({ type, enabled }: { type: CardType; enabled: boolean }) => updateCardType(projectId, type.id, { enabled }),
    onSuccess: (saved) => {
      void message.success(t(saved.enabled ? 'cardTypes.enabledNow' : 'cardTypes.disabled'));
      return client.invalidateQueries({ queryKey: key });
    },
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (type: CardType) => deleteCardType(projectId, type.id),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
    // A type cards were made from stays (they would lose its features): say so and offer what works instead.
    onError: (error, type) => {
      if (!(error instanceof ApiError && error.code === CARD_TYPE_IN_USE)) return notifyError(error);
      if (!type.enabled)
        return void modal.info({
          title: t('cardTypes.inUseTitle', { name: type.name }),
          content: t('cardTypes.inUseDisabledText'),
          okText: t('common.close'),
        });
      modal.confirm({
        title: t('cardTypes.inUseTitle', { name: type.name }),
        content: t('cardTypes.inUseText'),
        okText: t('cardTypes.disable'),
        cancelText: t('common.cancel'),
        onOk: () => setEnabled.mutateAsync({ type, enabled: false }).catch(() => undefined),
      });
    },
  });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('cardTypes.title')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('cardTypes.add')}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t('cardTypes.help')}</Typography.Paragraph>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<CardType>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('cardTypes.empty') }}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          {
            title: t('cardTypes.name'),
            dataIndex: 'name',
            render: (name: string) => <Typography.Text strong>{name}</Typography.Text>,
          },
          { title: t('cardTypes.kind'), dataIndex: 'kind', render: (kind: CardType['kind']) => t(`cards.kinds.${kind}`) },
          { title: t('cardTypes.allowance'), key: 'allowance', render: (_: unknown, type: CardType) => allowance(type) },
          { title: t('cardTypes.devices'), dataIndex: 'device_limit' },
          {
            title: t('cardTypes.seats'),
            dataIndex: 'concurrent_limit',
            render: (limit: number | null) => limit ?? t('common.unlimited'),
          },
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
                <Typography.Text type="secondary">{t('cardTypes.noFeatures')}</Typography.Text>
              ),
          },
          {
            title: t('cardTypes.price'),
            dataIndex: 'price_cents',
            align: 'right' as const,
            render: (cents: number) => money(cents),
          },
          {
            title: t('cardTypes.agents'),
            dataIndex: 'agent_allowed',
            render: (allowed: boolean) => t(allowed ? 'common.yes' : 'common.no'),
          },
          {
            title: t('cardTypes.forSale'),
            dataIndex: 'for_sale',
            render: (forSale: boolean, type: CardType) =>
              forSale ? <Tag color="blue">{t(`cardTypes.form.stock_mode.${type.stock_mode}`)}</Tag> : t('common.no'),
          },
          {
            title: t('cardTypes.prefix'),
            dataIndex: 'prefix',
            render: (prefix: string) => (prefix ? <Typography.Text code>{prefix}</Typography.Text> : '—'),
          },
          {
            title: t('cardTypes.keyShape'),
            key: 'key_shape',
            render: (_: unknown, type: CardType) =>
              t('cardTypes.keyShapeText', {
                count: type.key_length,
                alphabet: t(`cardTypes.form.alphabets.${type.key_alphabet}`),
              }),
          },
          {
            title: t('cardTypes.enabled'),
            dataIndex: 'enabled',
            render: (enabled: boolean, type: CardType) => (
              <Switch
                checked={enabled}
                aria-label={`${t('cardTypes.enabled')} ${type.name}`}
                loading={setEnabled.isPending && setEnabled.variables?.type.id === type.id}
                onChange={(next) => setEnabled.mutate({ type, enabled: next })}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, type: CardType) => (
              <Space>
                <Button size="small" aria-label={`${t('cardTypes.edit')} ${type.name}`} onClick={() => setEditing(type)}>
                  {t('cardTypes.edit')}
                </Button>
                <Button
                  size="small"
                  danger
                  aria-label={`${t('common.delete')} ${type.name}`}
                  onClick={() =>
                    confirmDanger({
                      title: t('cardTypes.deleteTitle', { name: type.name }),
                      content: t('cardTypes.deleteContent'),
                      okText: t('common.delete'),
                      onOk: () => remove.mutateAsync(type),
                    })
                  }
                >
                  {t('common.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <CardTypeModal
          projectId={projectId}
          type={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void client.invalidateQueries({ queryKey: key });
          }}
        />
      )}
    </>
  );
}
