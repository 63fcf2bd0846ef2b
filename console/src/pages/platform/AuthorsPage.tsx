import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useListPage } from '../../components/list-page';
import { authorKeys, authorListQuery, updateAuthor, type Author } from './platform-queries';
import { CreateAuthorModal, EditAuthorModal } from './AuthorModals';

/** The platform admin's authors: search, create, disable or enable, reset a password, set daily quotas. */
export function AuthorsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const authors = useListPage<{ q?: string }>(['q']);
  const { q = '' } = authors.filters;
  const list = useQuery(authorListQuery(q, authors.page, authors.pageSize));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<{ author: Author; part: 'password' | 'quotas' }>();
  const setStatus = useMutation({
    mutationFn: ({ author, status }: { author: Author; status: Author['status'] }) => updateAuthor(author.id, { status }),
    onSuccess: () => void queries.invalidateQueries({ queryKey: authorKeys.all }),
    onError: notifyError,
  });
  const texts = 'platform.authors';
  const quota = (value: number | null) => value ?? t('common.unlimited');

  const toggle = (author: Author) =>
    author.status === 'active'
      ? confirmDanger({
          title: t(`${texts}.disableTitle`, { name: author.username }),
          content: t(`${texts}.disableText`),
          okText: t(`${texts}.disable`),
          onOk: () => setStatus.mutateAsync({ author, status: 'disabled' }),
        })
      : setStatus.mutate({ author, status: 'active' });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          {t(`${texts}.new`)}
        </Button>
      </div>
      <Input.Search
        className="filters"
        aria-label={t(`${texts}.search`)}
        placeholder={t(`${texts}.search`)}
        defaultValue={q}
        allowClear
        enterButton={t('common.search')}
        style={{ maxWidth: 360 }}
        onSearch={(value) => authors.show({ q: value })}
      />
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Author>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={authors.pagination(list.data?.total)}
        columns={[
          { title: t(`${texts}.username`), dataIndex: 'username' },
          {
            title: t(`${texts}.status`),
            dataIndex: 'status',
            render: (status: Author['status']) => (
              <Tag color={status === 'active' ? 'green' : 'red'}>{t(`${texts}.statuses.${status}`)}</Tag>
            ),
          },
          { title: t(`${texts}.apiQuota`), dataIndex: 'daily_api_quota', render: quota },
          { title: t(`${texts}.verifyQuota`), dataIndex: 'daily_verify_quota', responsive: ['md' as const], render: quota },
          {
            title: t(`${texts}.created`),
            dataIndex: 'created_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, author: Author) => (
              <Space wrap size="small">
                <Button
                  size="small"
                  danger={author.status === 'active'}
                  onClick={() => toggle(author)}
                  aria-label={`${author.status === 'active' ? t(`${texts}.disable`) : t(`${texts}.enable`)} ${author.username}`}
                >
                  {author.status === 'active' ? t(`${texts}.disable`) : t(`${texts}.enable`)}
                </Button>
                <Button
                  size="small"
                  onClick={() => setEditing({ author, part: 'password' })}
                  aria-label={`${t(`${texts}.resetPassword`)} ${author.username}`}
                >
                  {t(`${texts}.resetPassword`)}
                </Button>
                <Button
                  size="small"
                  onClick={() => setEditing({ author, part: 'quotas' })}
                  aria-label={`${t(`${texts}.quotas`)} ${author.username}`}
                >
                  {t(`${texts}.quotas`)}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {creating && <CreateAuthorModal onClose={() => setCreating(false)} />}
      {editing && <EditAuthorModal {...editing} onClose={() => setEditing(undefined)} />}
    </>
  );
}
