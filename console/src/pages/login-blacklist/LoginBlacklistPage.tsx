import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useServerPage } from '../../components/use-server-page';
import { fromZoneInput, toZoneInput } from '../../components/time-zone';
import {
  addLoginBlacklistEntry,
  loginBlacklistKey,
  loginBlacklistQuery,
  removeLoginBlacklistEntry,
  updateLoginBlacklistEntry,
  type LoginBlacklistEntry as Entry,
} from './blacklist-queries';

type Kind = 'device' | 'address';
interface Draft {
  kind: Kind;
  value: string;
  note?: string;
  expires_at?: string;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}(\/(3[0-2]|[12]?\d))?$/;
const IPV6 = /^[0-9a-f:.]*:[0-9a-f:.]*(\/(12[0-8]|1[01]\d|\d?\d))?$/i;
/** The API's check is the one that counts (node:net); this one only saves a round trip for a typo. */
export const looksLikeAddress = (value: string) => IPV4.test(value.trim()) || IPV6.test(value.trim());

const texts = 'loginBlacklist';

/** Devices and addresses refused on every client family of a project (decisions §22, `40002 BLACKLISTED`). */
export function LoginBlacklistPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { projectId = '' } = useParams();
  const [kind, setKind] = useState<Kind | 'all'>('all');
  const paging = useServerPage();
  const [editing, setEditing] = useState<Entry | 'new' | null>(null);
  const client = useQueryClient();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const key = loginBlacklistKey(projectId);
  const list = useQuery(loginBlacklistQuery(projectId, kind, paging.query));
  const remove = useMutation({
    mutationFn: (entry: Entry) => removeLoginBlacklistEntry(projectId, entry.id),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
    onError: notifyError,
  });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t(`${texts}.add`)}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Segmented<Kind | 'all'>
        className="block-gap"
        value={kind}
        onChange={(next) => {
          setKind(next);
          paging.first();
        }}
        options={[
          { value: 'all', label: t(`${texts}.all`) },
          { value: 'device', label: t(`${texts}.kinds.device`) },
          { value: 'address', label: t(`${texts}.kinds.address`) },
        ]}
      />
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Entry>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          { title: t(`${texts}.kind`), dataIndex: 'kind', render: (value: Kind) => t(`${texts}.kinds.${value}`) },
          {
            title: t(`${texts}.value`),
            dataIndex: 'value',
            render: (value: string) => (
              <Typography.Text code copyable>
                {value}
              </Typography.Text>
            ),
          },
          { title: t(`${texts}.note`), dataIndex: 'note', render: (note: string | null) => note ?? '—' },
          {
            title: t(`${texts}.expires`),
            dataIndex: 'expires_at',
            render: (at: string | null) => (at ? format.dateTime(at) : t(`${texts}.forGood`)),
          },
          {
            title: t(`${texts}.status`),
            dataIndex: 'active',
            render: (active: boolean) => (
              <Tag color={active ? 'red' : 'default'}>{t(`${texts}.${active ? 'active' : 'expired'}`)}</Tag>
            ),
          },
          {
            title: t(`${texts}.created`),
            dataIndex: 'created_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, entry: Entry) => (
              <Space>
                <Button size="small" aria-label={`${t(`${texts}.edit`)} ${entry.value}`} onClick={() => setEditing(entry)}>
                  {t(`${texts}.edit`)}
                </Button>
                <Button
                  size="small"
                  danger
                  aria-label={`${t('common.delete')} ${entry.value}`}
                  onClick={() =>
                    confirmDanger({
                      title: t(`${texts}.deleteTitle`, { value: entry.value }),
                      content: t(`${texts}.deleteContent`),
                      okText: t('common.delete'),
                      onOk: () => remove.mutateAsync(entry),
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
        <EntryModal
          projectId={projectId}
          entry={editing === 'new' ? null : editing}
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

/** Adds an entry, or changes an entry's note and expiry (what is refused stays: remove it and add another). */
function EntryModal({
  projectId,
  entry,
  onClose,
  onSaved,
}: {
  projectId: string;
  entry: Entry | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { zone } = useFormat();
  const { message } = App.useApp();
  const [form] = Form.useForm<Draft>();
  const kind = Form.useWatch('kind', form) ?? (entry?.kind as Kind | undefined) ?? 'device';
  const save = useMutation({
    mutationFn: async (draft: Draft) => {
      const expires_at = draft.expires_at ? fromZoneInput(draft.expires_at, zone).toISOString() : null;
      const note = draft.note?.trim() ? draft.note.trim() : null;
      if (entry) return updateLoginBlacklistEntry(projectId, entry.id, { note, expires_at });
      return addLoginBlacklistEntry(projectId, { kind: draft.kind, value: draft.value.trim(), note, expires_at });
    },
    onSuccess: () => {
      void message.success(t(`${texts}.saved`));
      onSaved();
    },
  });
  return (
    <Modal
      open
      title={entry ? t(`${texts}.editTitle`, { value: entry.value }) : t(`${texts}.addTitle`)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Draft>
        form={form}
        layout="vertical"
        name="login-blacklist-entry"
        onFinish={(draft) => save.mutate(draft)}
        initialValues={
          entry
            ? {
                kind: entry.kind as Kind,
                value: entry.value,
                note: entry.note ?? '',
                expires_at: entry.expires_at ? toZoneInput(new Date(entry.expires_at), zone) : '',
              }
            : { kind: 'device' }
        }
      >
        <Form.Item name="kind" label={t(`${texts}.kind`)}>
          <Select
            disabled={entry !== null}
            options={(['device', 'address'] as const).map((value) => ({ value, label: t(`${texts}.kinds.${value}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="value"
          label={t(`${texts}.value`)}
          extra={t(`${texts}.valueHelp.${kind}`)}
          rules={[
            { required: true, whitespace: true },
            { max: 128 },
            {
              validator: (_, value: string | undefined) =>
                kind !== 'address' || !value || looksLikeAddress(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t(`${texts}.badAddress`))),
            },
          ]}
        >
          <Input disabled={entry !== null} maxLength={128} placeholder={kind === 'address' ? '203.0.113.0/24' : 'PC-1234'} />
        </Form.Item>
        <Form.Item name="note" label={t(`${texts}.note`)} rules={[{ max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="expires_at" label={t(`${texts}.expires`)} extra={t(`${texts}.expiresHelp`, { zone })}>
          <Input type="datetime-local" style={{ width: 240 }} />
        </Form.Item>
      </Form>
      {save.error && <ErrorAlert error={save.error} />}
    </Modal>
  );
}
