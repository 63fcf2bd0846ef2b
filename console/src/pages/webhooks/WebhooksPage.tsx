import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { DeliveryLog } from './DeliveryLog';
import {
  createWebhook,
  deleteWebhook,
  deliveriesKey,
  testWebhook,
  updateWebhook,
  webhookKeys,
  webhookListQuery,
  type Webhook,
} from './webhook-queries';
import { WebhookModal, type WebhookDraft } from './WebhookModal';

/**
 * A project's webhook endpoints (decisions §20): add, edit, switch on and off, delete, send a test
 * event, and read an endpoint's delivery log (its id in the address, so a reload keeps it open).
 * An endpoint the service switched off after 3 days of failures is flagged above the list.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const [editing, setEditing] = useState<Webhook | 'new'>();
  const texts = 'webhooks';
  const refresh = () => void queries.invalidateQueries({ queryKey: webhookKeys.ofProject(projectId) });
  const list = useQuery(webhookListQuery(projectId));
  const endpoints = list.data?.items ?? [];
  const shown = endpoints.find((endpoint) => endpoint.id === params.get('endpoint'));
  const showLog = (endpoint?: Webhook) => setParams(endpoint ? { endpoint: endpoint.id } : {}, { replace: true });

  const save = useMutation({
    mutationFn: (draft: WebhookDraft) =>
      editing === 'new' || editing === undefined ? createWebhook(projectId, draft) : updateWebhook(projectId, editing.id, draft),
    onSuccess: () => {
      setEditing(undefined);
      refresh();
      void message.success(t('common.saved'));
    },
  });
  const toggle = useMutation({
    mutationFn: ({ endpoint, enabled }: { endpoint: Webhook; enabled: boolean }) =>
      updateWebhook(projectId, endpoint.id, { enabled }),
    onSuccess: (endpoint, { endpoint: before }) => {
      refresh();
      if (endpoint.enabled && before.disabled_reason) void message.success(t(`${texts}.enabledAgain`));
    },
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (endpoint: Webhook) => deleteWebhook(projectId, endpoint.id),
    onSuccess: (_, endpoint) => {
      if (shown?.id === endpoint.id) showLog();
      refresh();
    },
    onError: notifyError,
  });
  const test = useMutation({
    mutationFn: (endpoint: Webhook) => testWebhook(projectId, endpoint.id),
    onSuccess: (_, endpoint) => {
      showLog(endpoint);
      void queries.invalidateQueries({ queryKey: deliveriesKey(projectId, endpoint.id) });
      void message.success(t(`${texts}.testSent`));
    },
    onError: notifyError,
  });

  const failing = endpoints.filter((endpoint) => !endpoint.enabled && endpoint.disabled_reason === 'failing');

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            save.reset();
            setEditing('new');
          }}
        >
          {t(`${texts}.new`)}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      {list.error && <ErrorAlert error={list.error} />}
      {failing.map((endpoint) => (
        <Alert
          key={endpoint.id}
          type="error"
          showIcon
          role="alert"
          style={{ marginBottom: 12 }}
          message={<Typography.Text strong>{endpoint.url}</Typography.Text>}
          description={t(`${texts}.disabledFailing`, { since: format.dateTime(endpoint.failing_since, '—') })}
          action={
            <Button size="small" loading={toggle.isPending} onClick={() => toggle.mutate({ endpoint, enabled: true })}>
              {t(`${texts}.enableAgain`)}
            </Button>
          }
        />
      ))}
      <Table<Webhook>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={endpoints}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          {
            title: t(`${texts}.url`),
            dataIndex: 'url',
            render: (url: string) => (
              <Typography.Text copyable={{ text: url }} style={{ wordBreak: 'break-all' }}>
                {url}
              </Typography.Text>
            ),
          },
          {
            title: t(`${texts}.events`),
            dataIndex: 'events',
            render: (events: string[]) => (
              <Tooltip title={events.join(', ')}>
                <Space size={[0, 4]} wrap style={{ maxWidth: 360 }}>
                  {events.map((type) => (
                    <Tag key={type}>{type}</Tag>
                  ))}
                </Space>
              </Tooltip>
            ),
          },
          {
            title: t(`${texts}.format`),
            dataIndex: 'format',
            render: (value: Webhook['format']) => t(`${texts}.formats.${value}`),
          },
          {
            title: t(`${texts}.enabled`),
            key: 'enabled',
            render: (_, endpoint) => (
              <Space>
                <Switch
                  checked={endpoint.enabled}
                  aria-label={`${t(`${texts}.enabled`)} ${endpoint.url}`}
                  loading={toggle.isPending && toggle.variables?.endpoint.id === endpoint.id}
                  onChange={(enabled) => toggle.mutate({ endpoint, enabled })}
                />
                {endpoint.disabled_reason === 'failing' && <Tag color="red">{t(`${texts}.disabledFailingShort`)}</Tag>}
              </Space>
            ),
          },
          {
            title: t(`${texts}.actions`),
            key: 'actions',
            render: (_, endpoint) => (
              <Space wrap>
                <Button
                  size="small"
                  loading={test.isPending && test.variables?.id === endpoint.id}
                  aria-label={`${t(`${texts}.test`)} ${endpoint.url}`}
                  onClick={() => test.mutate(endpoint)}
                >
                  {t(`${texts}.test`)}
                </Button>
                <Button
                  size="small"
                  type={shown?.id === endpoint.id ? 'primary' : 'default'}
                  aria-label={`${t(`${texts}.deliveries`)} ${endpoint.url}`}
                  onClick={() => showLog(endpoint)}
                >
                  {t(`${texts}.deliveries`)}
                </Button>
                <Button
                  size="small"
                  aria-label={`${t(`${texts}.edit`)} ${endpoint.url}`}
                  onClick={() => {
                    save.reset();
                    setEditing(endpoint);
                  }}
                >
                  {t(`${texts}.edit`)}
                </Button>
                <Button
                  size="small"
                  danger
                  aria-label={`${t('common.delete')} ${endpoint.url}`}
                  onClick={() =>
                    confirmDanger({
                      title: t(`${texts}.deleteTitle`, { url: endpoint.url }),
                      content: t(`${texts}.deleteText`),
                      okText: t('common.delete'),
                      onOk: () => remove.mutateAsync(endpoint),
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
      {shown && (
        <div style={{ marginTop: 16 }}>
          <DeliveryLog key={shown.id} projectId={projectId} webhook={shown} onClose={() => showLog()} />
        </div>
      )}
      {editing && (
        <WebhookModal
          editing={editing === 'new' ? undefined : editing}
          saving={save.isPending}
          error={save.error}
          onSave={(draft) => save.mutate(draft)}
          onCancel={() => setEditing(undefined)}
        />
      )}
    </>
  );
}
