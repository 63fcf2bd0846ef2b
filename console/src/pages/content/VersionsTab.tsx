import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import {
  contentKeys,
  createVersion,
  deleteVersion,
  filesQuery,
  setVersionEnabled,
  versionsQuery,
  type NewVersion as Draft,
  type Version,
} from './content-queries';
import { sizeOf } from './FilesTab';

const VERSION = /^\d{1,9}(\.\d{1,9}){0,3}$/;

/** The project's versions: publish one with an uploaded file or an address, force it, show or hide it, delete it. */
export function VersionsTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const list = useQuery(versionsQuery(projectId));
  const files = useQuery(filesQuery(projectId));
  const [creating, setCreating] = useState(false);
  const refresh = () => void queries.invalidateQueries({ queryKey: contentKeys.versions(projectId) });
  const create = useMutation({
    mutationFn: (draft: Draft) => createVersion(projectId, { ...draft, download_url: draft.download_url?.trim() || undefined }),
    onSuccess: () => {
      setCreating(false);
      refresh();
    },
  });
  const patch = useMutation({
    mutationFn: ({ item, enabled }: { item: Version; enabled: boolean }) => setVersionEnabled(projectId, item.id, enabled),
    onSuccess: refresh,
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (item: Version) => deleteVersion(projectId, item.id),
    onSuccess: refresh,
    onError: notifyError,
  });
  const texts = 'content.versions';
  const fileName = (id: string | null) => files.data?.items.find((file) => file.id === id)?.name ?? id;

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
        {t(`${texts}.new`)}
      </Button>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Version>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          {
            title: t(`${texts}.version`),
            dataIndex: 'version',
            render: (version: string, item) => (
              <>
                {version} {item.force_update && <Tag color="orange">{t(`${texts}.forced`)}</Tag>}
              </>
            ),
          },
          { title: t(`${texts}.changelog`), dataIndex: 'changelog', ellipsis: true, responsive: ['md' as const] },
          {
            title: t(`${texts}.file`),
            key: 'target',
            render: (_, item) => (item.file_id ? fileName(item.file_id) : (item.download_url ?? '—')),
          },
          {
            title: t('content.enabled'),
            dataIndex: 'enabled',
            render: (enabled: boolean, item) => (
              <Switch
                checked={enabled}
                aria-label={`${t('content.enabled')} ${item.version}`}
                onChange={(next) => patch.mutate({ item, enabled: next })}
              />
            ),
          },
          {
            title: t('content.created'),
            dataIndex: 'created_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: '',
            key: 'delete',
            render: (_, item) => (
              <Button
                size="small"
                danger
                aria-label={`${t('common.delete')} ${item.version}`}
                onClick={() =>
                  confirmDanger({
                    title: t(`${texts}.deleteTitle`, { version: item.version }),
                    content: '',
                    okText: t('common.delete'),
                    onOk: () => remove.mutateAsync(item),
                  })
                }
              >
                {t('common.delete')}
              </Button>
            ),
          },
        ]}
      />
      {creating && (
        <Modal
          open
          title={t(`${texts}.new`)}
          okText={t('common.create')}
          onCancel={() => setCreating(false)}
          confirmLoading={create.isPending}
          destroyOnHidden
          okButtonProps={{ htmlType: 'submit', form: 'version' }}
        >
          <Form<Draft>
            name="version"
            layout="vertical"
            initialValues={{ enabled: true, force_update: false }}
            onFinish={(draft) => create.mutate(draft)}
          >
            <Form.Item
              name="version"
              label={t(`${texts}.version`)}
              extra={t(`${texts}.versionHelp`)}
              rules={[{ required: true }, { pattern: VERSION, message: t(`${texts}.versionHelp`) }]}
            >
              <Input autoFocus maxLength={40} placeholder="1.2.0" />
            </Form.Item>
            <Form.Item name="changelog" label={t(`${texts}.changelog`)} rules={[{ max: 20_000 }]}>
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={20_000} />
            </Form.Item>
            <Form.Item name="file_id" label={t(`${texts}.file`)}>
              <Select
                allowClear
                options={(files.data?.items ?? []).map((file) => ({
                  value: file.id,
                  label: `${file.name} (${sizeOf(file.size)})`,
                }))}
              />
            </Form.Item>
            <Form.Item
              name="download_url"
              label={t(`${texts}.url`)}
              extra={t(`${texts}.urlHelp`)}
              rules={[{ type: 'url' }, { max: 500 }]}
            >
              <Input maxLength={500} placeholder="https://" />
            </Form.Item>
            <Form.Item name="force_update" label={t(`${texts}.force`)} extra={t(`${texts}.forceHelp`)} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="enabled" label={t('content.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            {create.error && <ErrorAlert error={create.error} />}
          </Form>
        </Modal>
      )}
    </>
  );
}
