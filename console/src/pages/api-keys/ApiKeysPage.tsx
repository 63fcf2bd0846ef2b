import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { ShownOnce } from '../../components/ShownOnce';
import { fromZoneInput } from '../../components/time-zone';
import { looksLikeAddress } from '../login-blacklist/LoginBlacklistPage';
import { useSession } from '../../app/use-session';
import { useKeyProjectOptions } from '../agents/agent-labels';
import {
  apiKeyKeys,
  apiKeyListQuery,
  createApiKey,
  revokeApiKey,
  type ApiKey as Key,
  type ApiKeyScope as Scope,
} from './api-key-queries';

interface Draft {
  name: string;
  scopes: Scope[];
  project_ids?: string[];
  allowed_cidrs?: string[];
  expires_at?: string;
}

/** The scopes a key may carry, in the API's order (src/admin-kernel/api-key-scopes.ts). */
const SCOPES: Scope[] = [
  'orders:create',
  'orders:read',
  'cards:read',
  'cards:write',
  'card-types:read',
  'webhooks:read',
  'webhooks:write',
];
/** An agent's keys serve its shop: they place and read its orders (the only routes of its scope a key reaches). */
const AGENT_SCOPES: Scope[] = ['orders:create', 'orders:read'];
const texts = 'apiKeys';
/** i18next reads a colon as a namespace: the texts name a scope with a hyphen instead. */
const scopeText = (scope: string) => `${texts}.scopeHelp.${scope.replace(':', '-')}`;

function statusOf(key: Key): 'active' | 'expired' | 'revoked' {
  if (key.revoked_at) return 'revoked';
  return key.expires_at && Date.parse(key.expires_at) <= Date.now() ? 'expired' : 'active';
}

/** The signed-in account's API keys (decisions §19): made with limits, shown once, revoked. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const client = useQueryClient();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const list = useQuery(apiKeyListQuery());
  const projects = useKeyProjectOptions();
  const agent = useSession()?.role === 'agent';
  const revoke = useMutation({
    mutationFn: (key: Key) => revokeApiKey(key.id),
    onSuccess: () => {
      void message.success(t(`${texts}.revoked`));
      void client.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
    onError: notifyError,
  });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t(`${texts}.new`)}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Key>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={false}
        columns={[
          { title: t(`${texts}.name`), dataIndex: 'name' },
          {
            title: t(`${texts}.prefix`),
            dataIndex: 'prefix',
            render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text>,
          },
          {
            title: t(`${texts}.scopes`),
            dataIndex: 'scopes',
            render: (scopes: Scope[]) =>
              scopes.map((s) => (
                <Tag key={s} title={t(scopeText(s))}>
                  {s}
                </Tag>
              )),
          },
          {
            title: t(`${texts}.projects`),
            dataIndex: 'project_ids',
            render: (ids: string[] | null) => (ids ? ids.map(projects.nameOf).join(', ') : t(`${texts}.allProjects`)),
          },
          {
            title: t(`${texts}.addresses`),
            dataIndex: 'allowed_cidrs',
            render: (cidrs: string[] | null) => (cidrs ? cidrs.join(', ') : t(`${texts}.anyAddress`)),
          },
          {
            title: t(`${texts}.expires`),
            dataIndex: 'expires_at',
            render: (at: string | null) => (at ? format.dateTime(at) : t(`${texts}.never`)),
          },
          {
            title: t(`${texts}.lastUsed`),
            dataIndex: 'last_used_at',
            render: (at: string | null) => (at ? format.dateTime(at) : t(`${texts}.neverUsed`)),
          },
          {
            title: t(`${texts}.status`),
            key: 'status',
            render: (_: unknown, key: Key) => {
              const status = statusOf(key);
              return <Tag color={status === 'active' ? 'green' : 'default'}>{t(`${texts}.statuses.${status}`)}</Tag>;
            },
          },
          {
            title: t(`${texts}.created`),
            dataIndex: 'created_at',
            responsive: ['xxl' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, key: Key) =>
              key.revoked_at ? null : (
                <Button
                  size="small"
                  danger
                  aria-label={`${t(`${texts}.revoke`)} ${key.name}`}
                  onClick={() =>
                    confirmDanger({
                      title: t(`${texts}.revokeTitle`, { name: key.name }),
                      content: t(`${texts}.revokeContent`),
                      okText: t(`${texts}.revoke`),
                      onOk: () => revoke.mutateAsync(key),
                    })
                  }
                >
                  {t(`${texts}.revoke`)}
                </Button>
              ),
          },
        ]}
      />
      {creating && (
        <CreateKeyModal
          projects={projects.options}
          scopes={agent ? AGENT_SCOPES : SCOPES}
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setShown(key);
            void client.invalidateQueries({ queryKey: apiKeyKeys.all });
          }}
        />
      )}
      {shown && (
        <ShownOnce
          title={t(`${texts}.shownTitle`)}
          warning={t(`${texts}.shownWarning`)}
          values={[{ label: t(`${texts}.shownLabel`), value: shown }]}
          onDone={() => setShown(null)}
        />
      )}
    </>
  );
}

/** Name, scopes, projects, addresses and expiry; the API's checks decide, the form catches typos first. */
function CreateKeyModal({
  projects,
  scopes,
  onClose,
  onCreated,
}: {
  projects: Array<{ value: string; label: string }>;
  scopes: Scope[];
  onClose: () => void;
  onCreated: (key: string) => void;
}) {
  const { t } = useTranslation();
  const { zone } = useFormat();
  const [form] = Form.useForm<Draft>();
  const create = useMutation({
    mutationFn: (draft: Draft) =>
      createApiKey({
        name: draft.name.trim(),
        scopes: draft.scopes,
        project_ids: draft.project_ids?.length ? draft.project_ids : null,
        allowed_cidrs: draft.allowed_cidrs?.length ? draft.allowed_cidrs.map((c) => c.trim()) : null,
        expires_at: draft.expires_at ? fromZoneInput(draft.expires_at, zone).toISOString() : null,
      }),
    onSuccess: (made) => onCreated(made.key),
  });
  const badAddress = (values: string[] | undefined) => values?.find((v) => !looksLikeAddress(v));
  return (
    <Modal
      open
      title={t(`${texts}.createTitle`)}
      okText={t(`${texts}.create`)}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <Form<Draft>
        form={form}
        layout="vertical"
        name="api-key"
        onFinish={(draft) => create.mutate(draft)}
        initialValues={{ scopes: [] }}
      >
        <Form.Item
          name="name"
          label={t(`${texts}.name`)}
          extra={t(`${texts}.nameHelp`)}
          rules={[{ required: true, whitespace: true }, { max: 64 }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="scopes"
          label={t(`${texts}.scopes`)}
          extra={t(`${texts}.scopesHelp`)}
          rules={[{ required: true, type: 'array', min: 1 }]}
        >
          <Checkbox.Group>
            <Space orientation="vertical" size={2}>
              {scopes.map((scope) => (
                <Checkbox key={scope} value={scope}>
                  <Typography.Text code>{scope}</Typography.Text> {t(scopeText(scope))}
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="project_ids" label={t(`${texts}.projects`)} extra={t(`${texts}.projectsHelp`)}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t(`${texts}.allProjects`)}
            optionFilterProp="label"
            options={projects}
          />
        </Form.Item>
        <Form.Item
          name="allowed_cidrs"
          label={t(`${texts}.addresses`)}
          extra={t(`${texts}.addressesHelp`)}
          rules={[
            {
              validator: (_, values: string[] | undefined) => {
                const bad = badAddress(values);
                return bad ? Promise.reject(new Error(t(`${texts}.badAddress`, { value: bad }))) : Promise.resolve();
              },
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            placeholder={t(`${texts}.anyAddress`)}
            tokenSeparators={[',', ' ']}
            aria-label={t(`${texts}.addresses`)}
          />
        </Form.Item>
        <Form.Item name="expires_at" label={t(`${texts}.expires`)} extra={t(`${texts}.expiresHelp`, { zone })}>
          <Input type="datetime-local" style={{ width: 240 }} />
        </Form.Item>
      </Form>
      {create.error && <ErrorAlert error={create.error} />}
    </Modal>
  );
}
