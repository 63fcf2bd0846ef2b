import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from './confirm';
import { ErrorAlert, useNotifyError } from './ErrorAlert';
import { useFormat } from './format';

export interface Announcement {
  id: number;
  title: string;
  content: string;
  enabled: boolean;
  created_at: string;
}
export type AnnouncementDraft = Pick<Announcement, 'title' | 'content' | 'enabled'>;

/** Where the announcements live: a project's (for its clients) or the platform's (for authors). */
export interface AnnouncementStore {
  queryKey: readonly unknown[];
  list: () => Promise<{ items: Announcement[] }>;
  create: (draft: AnnouncementDraft) => Promise<unknown>;
  update: (id: number, body: Partial<AnnouncementDraft>) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
}

/**
 * Write, edit, show or hide and delete (confirmed) announcements. `texts` is the i18n prefix of
 * help, new, empty, titleField, content, enabled (who it is shown to) and deleteTitle.
 */
export function AnnouncementsEditor({ store, texts }: { store: AnnouncementStore; texts: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const list = useQuery({ queryKey: store.queryKey, queryFn: store.list });
  const [editing, setEditing] = useState<Announcement | 'new'>();
  const refresh = () => void queries.invalidateQueries({ queryKey: store.queryKey });
  const save = useMutation({
    mutationFn: (draft: AnnouncementDraft) =>
      editing === 'new' || !editing ? store.create(draft) : store.update(editing.id, draft),
    onSuccess: () => {
      setEditing(undefined);
      refresh();
    },
  });
  const patch = useMutation({
    mutationFn: ({ item, body }: { item: Announcement; body: Partial<AnnouncementDraft> }) => store.update(item.id, body),
    onSuccess: refresh,
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (item: Announcement) => store.remove(item.id),
    onSuccess: refresh,
    onError: notifyError,
  });
  const enabledLabel = t(`${texts}.enabled`);

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
        {t(`${texts}.new`)}
      </Button>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Announcement>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          { title: t(`${texts}.titleField`), dataIndex: 'title' },
          { title: t(`${texts}.content`), dataIndex: 'content', ellipsis: true, responsive: ['md' as const] },
          {
            title: enabledLabel,
            dataIndex: 'enabled',
            render: (enabled: boolean, item) => (
              <Switch
                checked={enabled}
                aria-label={`${enabledLabel} ${item.title}`}
                onChange={(next) => patch.mutate({ item, body: { enabled: next } })}
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
            key: 'actions',
            render: (_, item) => (
              <Space size="small">
                <Button size="small" onClick={() => setEditing(item)} aria-label={`${t('content.edit')} ${item.title}`}>
                  {t('content.edit')}
                </Button>
                <Button
                  size="small"
                  danger
                  aria-label={`${t('common.delete')} ${item.title}`}
                  onClick={() =>
                    confirmDanger({
                      title: t(`${texts}.deleteTitle`, { title: item.title }),
                      content: '',
                      okText: t('common.delete'),
                      onOk: () => remove.mutateAsync(item),
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
        <Modal
          open
          title={editing === 'new' ? t(`${texts}.new`) : `${t('content.edit')} · ${editing.title}`}
          okText={t('common.save')}
          onCancel={() => setEditing(undefined)}
          confirmLoading={save.isPending}
          destroyOnHidden
          okButtonProps={{ htmlType: 'submit', form: 'announcement' }}
        >
          <Form<AnnouncementDraft>
            name="announcement"
            layout="vertical"
            initialValues={editing === 'new' ? { enabled: true } : editing}
            onFinish={(draft) => save.mutate(draft)}
          >
            <Form.Item name="title" label={t(`${texts}.titleField`)} rules={[{ required: true, whitespace: true }, { max: 200 }]}>
              <Input maxLength={200} autoFocus />
            </Form.Item>
            <Form.Item
              name="content"
              label={t(`${texts}.content`)}
              rules={[{ required: true, whitespace: true }, { max: 20_000 }]}
            >
              <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={20_000} showCount />
            </Form.Item>
            <Form.Item name="enabled" label={enabledLabel} valuePropName="checked">
              <Switch />
            </Form.Item>
            {save.error && <ErrorAlert error={save.error} />}
          </Form>
        </Modal>
      )}
    </>
  );
}
