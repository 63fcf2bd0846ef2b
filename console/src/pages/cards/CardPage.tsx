import { EditOutlined, StopOutlined, UndoOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { App, Button, Card as Panel, Descriptions, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Card } from '../../api/client';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { PageLoading } from '../../components/PageLoading';
import { CardTimeline } from '../logs/CardTimeline';
import { CardAllowance, CardStatusTag } from './card-labels';
import { cardKeys, cardQuery, unbindDevice, updateCard, type CardDevice } from './card-queries';
import { CardEditModal } from './CardEditModal';

/** One card: everything about it, its edits, its devices (unbind), ban and unban — each destructive step confirmed first. */
export function CardPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const { projectId = '', cardId: cardParam = '' } = useParams();
  const cardId = Number(cardParam);
  const card = useQuery({ ...cardQuery(projectId, cardId), enabled: Number.isInteger(cardId) });
  const [editing, setEditing] = useState(false);
  const refresh = (updated?: Card) => {
    if (updated) queries.setQueryData(cardKeys.one(projectId, cardId), updated);
    void queries.invalidateQueries({ queryKey: cardKeys.ofProject(projectId) });
  };
  const setStatus = useMutation({
    mutationFn: (status: 'banned' | 'active') => updateCard(projectId, cardId, { status }),
    onSuccess: (updated, status) => {
      refresh(updated);
      void message.success(t(status === 'banned' ? 'cards.banned' : 'cards.unbanned'));
    },
    onError: notifyError,
  });
  const unbind = useMutation({
    mutationFn: (machine: string) => unbindDevice(projectId, cardId, machine),
    onSuccess: () => {
      refresh();
      void message.success(t('cards.unbound'));
    },
    onError: notifyError,
  });

  if (card.error) return <ErrorAlert error={card.error} />;
  if (!card.data) return <PageLoading />;
  const c = card.data;

  const confirmBan = () =>
    confirmDanger({
      title: t('cards.banTitle'),
      content: t('cards.banText'),
      okText: t('cards.ban'),
      onOk: () => setStatus.mutateAsync('banned'),
    });
  const confirmUnbind = (machine: string) =>
    confirmDanger({
      title: t('cards.unbindTitle', { machine }),
      content: t('cards.unbindText'),
      okText: t('cards.unbind'),
      onOk: () => unbind.mutateAsync(machine),
    });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1} copyable={{ text: c.code }} style={{ wordBreak: 'break-all' }}>
          {t('cards.cardTitle', { code: c.code })} <CardStatusTag status={c.status} />
        </Typography.Title>
        <Space wrap>
          <Link to={`/projects/${projectId}/cards`}>{t('cards.title')}</Link>
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t('cardsManage.edit.open')}
          </Button>
          {c.status === 'banned' ? (
            <Button icon={<UndoOutlined />} onClick={() => setStatus.mutate('active')} loading={setStatus.isPending}>
              {t('cards.unban')}
            </Button>
          ) : (
            <Button
              danger
              icon={<StopOutlined />}
              onClick={confirmBan}
              disabled={c.status === 'consumed' || c.status === 'stock'}
            >
              {t('cards.ban')}
            </Button>
          )}
        </Space>
      </div>
      <Descriptions bordered size="small" column={{ xs: 1, md: 2 }} className="block-gap">
        <Descriptions.Item label={t('cards.kind')}>{t(`cards.kinds.${c.kind}`)}</Descriptions.Item>
        <Descriptions.Item label={t('cards.duration')}>
          <CardAllowance card={c} />
        </Descriptions.Item>
        <Descriptions.Item label={t('cards.activated')}>{format.dateTime(c.activated_at)}</Descriptions.Item>
        <Descriptions.Item label={t('cards.expires')}>{format.dateTime(c.expires_at, '—')}</Descriptions.Item>
        <Descriptions.Item label={t('cards.lastLogin')}>{format.dateTime(c.last_login_at)}</Descriptions.Item>
        <Descriptions.Item label={t('cards.useCount')}>{c.use_count}</Descriptions.Item>
        <Descriptions.Item label={t('cards.deviceLimit')}>{c.device_limit}</Descriptions.Item>
        <Descriptions.Item label={t('cards.concurrentLimit')}>{c.concurrent_limit ?? t('common.unlimited')}</Descriptions.Item>
        <Descriptions.Item label={t('cards.batch')}>
          {c.batch_id ? <Link to={`/projects/${projectId}/cards?batch_id=${c.batch_id}`}>{c.batch_id}</Link> : t('common.none')}
        </Descriptions.Item>
        <Descriptions.Item label={t('cardsManage.created')}>{format.dateTime(c.created_at)}</Descriptions.Item>
        <Descriptions.Item label={t('cards.note')}>{c.note ?? ''}</Descriptions.Item>
        <Descriptions.Item label={t('cardsManage.edit.holderEmail.label')}>{c.holder_email ?? '—'}</Descriptions.Item>
      </Descriptions>
      <Panel title={`${t('cards.devices')} (${c.devices.length} / ${c.device_limit})`} size="small">
        <Table<CardDevice>
          rowKey="machine_code"
          dataSource={c.devices}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('cards.noDevices') }}
          columns={[
            {
              title: t('cards.machineCode'),
              dataIndex: 'machine_code',
              render: (code: string) => (
                <Typography.Text code copyable>
                  {code}
                </Typography.Text>
              ),
            },
            { title: t('cards.boundAt'), dataIndex: 'bound_at', render: (at: string) => format.dateTime(at) },
            {
              title: t('common.actions'),
              key: 'unbind',
              render: (_: unknown, device: CardDevice) => (
                <Button
                  danger
                  size="small"
                  onClick={() => confirmUnbind(device.machine_code)}
                  aria-label={`${t('cards.unbind')} ${device.machine_code}`}
                >
                  {t('cards.unbind')}
                </Button>
              ),
            },
          ]}
        />
      </Panel>
      <CardTimeline projectId={projectId} cardCode={c.code} />
      {editing && (
        <CardEditModal
          projectId={projectId}
          card={c}
          onClose={() => setEditing(false)}
          onSaved={(updated) => {
            refresh(updated);
            setEditing(false);
          }}
        />
      )}
    </>
  );
}
