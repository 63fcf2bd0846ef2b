import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useListPage } from '../../components/list-page';
import { revokeSessions } from '../sessions/session-queries';
import { appUserKey, appUserListQuery, updateAppUser, type AppUser, type AppUserChange as Change } from './user-queries';

interface UserFilters {
  q?: string;
  status?: AppUser['status'];
}

const STATUSES = ['active', 'banned'] as const;

/** The users a project's program registered: search, ban or unban, reset a password, unbind the device, force offline. */
export function UsersPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const { projectId = '' } = useParams();
  // The search and the status apply as they change: no filter form, the list page's address state only.
  const users = useListPage<UserFilters>(['q', 'status']);
  const { q = '', status } = users.filters;
  const list = useQuery(appUserListQuery(projectId, q, status, users.page, users.pageSize));
  const [resetting, setResetting] = useState<AppUser>();
  const done = () => {
    void queries.invalidateQueries({ queryKey: appUserKey(projectId) });
    void message.success(t('users.done'));
  };
  const change = useMutation({
    mutationFn: ({ user, body }: { user: AppUser; body: Change }) => updateAppUser(projectId, user.user_id, body),
    onSuccess: () => {
      setResetting(undefined);
      done();
    },
  });
  const offline = useMutation({
    mutationFn: (user: AppUser) => revokeSessions(projectId, { user_id: user.user_id }),
    onSuccess: done,
    onError: notifyError,
  });
  const show = (next: UserFilters) => users.show({ ...users.filters, ...next });
  const ask = (title: string, content: string, okText: string, onOk: () => Promise<unknown>) =>
    confirmDanger({ title, content, okText, onOk });
  const mutateOrNotify = (user: AppUser, body: Change) => change.mutateAsync({ user, body }).catch(notifyError);

  const actions = (user: AppUser) => {
    const name = user.username;
    return (
      <Space wrap size="small">
        {user.status === 'active' ? (
          <Button
            size="small"
            danger
            aria-label={`${t('users.ban')} ${name}`}
            onClick={() =>
              ask(t('users.banTitle', { name }), t('users.banText'), t('users.ban'), () =>
                mutateOrNotify(user, { status: 'banned' }),
              )
            }
          >
            {t('users.ban')}
          </Button>
        ) : (
          <Button
            size="small"
            aria-label={`${t('users.unban')} ${name}`}
            onClick={() => void mutateOrNotify(user, { status: 'active' })}
          >
            {t('users.unban')}
          </Button>
        )}
        <Button size="small" aria-label={`${t('users.resetPassword')} ${name}`} onClick={() => setResetting(user)}>
          {t('users.resetPassword')}
        </Button>
        <Button
          size="small"
          disabled={!user.machine_id}
          aria-label={`${t('users.unbind')} ${name}`}
          onClick={() =>
            ask(t('users.unbindTitle', { name }), t('users.unbindText'), t('users.unbind'), () =>
              mutateOrNotify(user, { machine_id: null }),
            )
          }
        >
          {t('users.unbind')}
        </Button>
        <Button
          size="small"
          aria-label={`${t('users.offline')} ${name}`}
          onClick={() =>
            ask(t('users.offlineTitle', { name }), t('users.offlineText'), t('users.offline'), () => offline.mutateAsync(user))
          }
        >
          {t('users.offline')}
        </Button>
      </Space>
    );
  };

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('users.title')}</Typography.Title>
      </div>
      <Space wrap className="filters">
        <Input.Search
          aria-label={t('users.search')}
          placeholder={t('users.search')}
          defaultValue={q}
          allowClear
          enterButton={t('common.search')}
          onSearch={(value) => show({ q: value })}
        />
        <Select
          aria-label={t('users.status')}
          placeholder={t('users.status')}
          allowClear
          value={status}
          style={{ width: 140 }}
          onChange={(value?: AppUser['status']) => show({ status: value })}
          options={STATUSES.map((value) => ({ value, label: t(`users.statuses.${value}`) }))}
        />
      </Space>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<AppUser>
        rowKey="user_id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('users.empty') }}
        pagination={users.pagination(list.data?.total)}
        columns={[
          { title: t('users.username'), dataIndex: 'username' },
          {
            title: t('users.status'),
            dataIndex: 'status',
            render: (value: AppUser['status']) => (
              <Tag color={value === 'active' ? 'green' : 'red'}>{t(`users.statuses.${value}`)}</Tag>
            ),
          },
          { title: t('users.machine'), dataIndex: 'machine_id', render: (machine: string | null) => machine ?? '—' },
          {
            title: t('users.lastLogin'),
            dataIndex: 'last_login_at',
            responsive: ['md' as const],
            render: (at: string | null) => format.dateTime(at),
          },
          {
            title: t('users.created'),
            dataIndex: 'created_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          { title: t('common.actions'), key: 'actions', render: (_, user) => actions(user) },
        ]}
      />
      {resetting && (
        <Modal
          open
          title={`${t('users.resetPassword')} · ${resetting.username}`}
          okText={t('common.save')}
          onCancel={() => setResetting(undefined)}
          confirmLoading={change.isPending}
          destroyOnHidden
          okButtonProps={{ htmlType: 'submit', form: 'app-user-password' }}
        >
          <Form
            name="app-user-password"
            layout="vertical"
            onFinish={({ password }: { password: string }) => change.mutate({ user: resetting, body: { password } })}
          >
            <Form.Item
              name="password"
              label={t('users.newPassword')}
              extra={t('users.passwordHelp')}
              rules={[{ required: true }, { min: 6, max: 128 }]}
            >
              <Input.Password autoFocus autoComplete="new-password" maxLength={128} />
            </Form.Item>
            {change.error && <ErrorAlert error={change.error} />}
          </Form>
        </Modal>
      )}
    </>
  );
}
