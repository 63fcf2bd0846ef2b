import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';

type Announcement = Schemas['AnnouncementView'];
type Draft = Schemas['CreateAnnouncementDto'];

/** The project's announcements: write, edit, show or hide, delete. */
export function AnnouncementsTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const key = ['announcements', projectId];
  const path = { params: { path: { id: projectId } } };
  const list = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/admin/v1/projects/{id}/announcements', { ...path, params: { ...path.params, query: { page: 1, page_size: 100 } } })) });
  const [editing, setEditing] = useState<Announcement | 'new'>();
  const refresh = () => void queries.invalidateQueries({ queryKey: key });
  const save = useMutation({
    mutationFn: (draft: Draft) =>
      editing === 'new' || !editing
        ? unwrap(api.POST('/admin/v1/projects/{id}/announcements', { ...path, body: draft }))
        : unwrap(api.PATCH('/admin/v1/projects/{id}/announcements/{annId}', { params: { path: { id: projectId, annId: editing.id } }, body: draft })),
    onSuccess: () => {
      setEditing(undefined);
      refresh();
    },
  });
  const patch = useMutation({
    mutationFn: ({ item, body }: { item: Announcement; body: Partial<Draft> }) => unwrap(api.PATCH('/admin/v1/projects/{id}/announcements/{annId}', { params: { path: { id: projectId, annId: item.id } }, body })),
    onSuccess: refresh,
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (item: Announcement) => unwrap(api.DELETE('/admin/v1/projects/{id}/announcements/{annId}', { params: { path: { id: projectId, annId: item.id } } })),
    onSuccess: refresh,
    onError: notifyError,
  });
  const texts = 'content.announcements';

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>{t(`${texts}.new`)}</Button>
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
          { title: t('content.enabled'), dataIndex: 'enabled', render: (enabled: boolean, item) => <Switch checked={enabled} aria-label={`${t('content.enabled')} ${item.title}`} onChange={(next) => patch.mutate({ item, body: { enabled: next } })} /> },
          { title: t('content.created'), dataIndex: 'created_at', responsive: ['lg' as const], render: (at: string) => format.dateTime(at) },
          {
            title: '',
            key: 'actions',
            render: (_, item) => (
              <Space size="small">
                <Button size="small" onClick={() => setEditing(item)} aria-label={`${t('content.edit')} ${item.title}`}>{t('content.edit')}</Button>
                <Button size="small" danger aria-label={`${t('common.delete')} ${item.title}`}
                  onClick={() => confirmDanger({ title: t(`${texts}.deleteTitle`, { title: item.title }), content: '', okText: t('common.delete'), onOk: () => remove.mutateAsync(item) })}>
                  {t('common.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <Modal open title={editing === 'new' ? t(`${texts}.new`) : `${t('content.edit')} · ${editing.title}`} okText={t('common.save')} onCancel={() => setEditing(undefined)} confirmLoading={save.isPending} destroyOnHidden
          okButtonProps={{ htmlType: 'submit', form: 'announcement' }}>
          <Form<Draft> name="announcement" layout="vertical" initialValues={editing === 'new' ? { enabled: true } : editing} onFinish={(draft) => save.mutate(draft)}>
            <Form.Item name="title" label={t(`${texts}.titleField`)} rules={[{ required: true, whitespace: true }, { max: 200 }]}>
              <Input maxLength={200} autoFocus />
            </Form.Item>
            <Form.Item name="content" label={t(`${texts}.content`)} rules={[{ required: true, whitespace: true }, { max: 20_000 }]}>
              <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} maxLength={20_000} showCount />
            </Form.Item>
            <Form.Item name="enabled" label={t('content.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            {save.error && <ErrorAlert error={save.error} />}
          </Form>
        </Modal>
      )}
    </>
  );
}
