import { ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { ListFilters, useListPage } from '../../components/list-page';
import { projectQuery } from '../projects/project-queries';
import {
  SESSION_FILTER_NAMES,
  SESSION_TYPES,
  revokeSessions,
  sessionListQuery,
  type RevokeTarget,
  usageQuery,
  type LiveSession,
  type SessionFilters,
} from './session-queries';

/** The live SDK sessions of a project, filtered by type and device; force one card or user offline, or everyone. */
export function SessionsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const { projectId = '' } = useParams();
  const sessions = useListPage<SessionFilters>(SESSION_FILTER_NAMES);
  const list = useQuery(sessionListQuery(projectId, sessions.filters, sessions.page, sessions.pageSize));
  const usage = useQuery(usageQuery(projectId));
  const project = useQuery(projectQuery(projectId));
  const interval = project.data?.heartbeat_interval_seconds ?? 60;
  /**
   * A heartbeat is recorded at most once a minute (and not in the login's first minute), so a client
   * that beats shows one at most two beats (or two minutes) old: three of them without one is silent.
   */
  const silentAfter = 3 * Math.max(interval, 60);
  // "Now" of the list's answer, so ages and silence are those of the rows as fetched (and render stays pure).
  const now = list.dataUpdatedAt;
  const live = usage.data ? usage.data.sessions.card + usage.data.sessions.app_user : 0;
  const texts = 'sessions';

  const revoke = useMutation({
    mutationFn: (target: RevokeTarget) => revokeSessions(projectId, target),
    onSuccess: ({ revoked }) => {
      void queries.invalidateQueries({ queryKey: ['sessions', projectId] });
      void message.success(t(`${texts}.ended`, { count: revoked }));
    },
  });
  const revokeOrNotify = (target: RevokeTarget) => revoke.mutateAsync(target).catch(notifyError);

  const forceOffline = (session: LiveSession) => {
    const isCard = session.type === 'card';
    const name = (isCard ? session.card_code : session.username) ?? String(isCard ? session.card_id : session.user_id);
    confirmDanger({
      title: t(isCard ? `${texts}.offlineCardTitle` : `${texts}.offlineUserTitle`, { name }),
      content: t(`${texts}.offlineText`, { type: t(`${texts}.types.${session.type}`) }),
      okText: t(`${texts}.offline`),
      onOk: () => revokeOrNotify(isCard ? { card_id: session.card_id! } : { user_id: session.user_id! }),
    });
  };
  const forceEveryone = () =>
    confirmDanger({
      title: t(`${texts}.everyoneTitle`, { count: live }),
      content: t(`${texts}.everyoneText`),
      okText: t(`${texts}.everyone`),
      onOk: () => revokeOrNotify({}),
    });

  const who = (session: LiveSession) => {
    if (session.type === 'card') {
      return session.card_id && session.card_code ? (
        <Link to={`/projects/${projectId}/cards/${session.card_id}`}>{session.card_code}</Link>
      ) : (
        `#${session.card_id ?? '—'}`
      );
    }
    return session.username ? (
      <Link to={`/projects/${projectId}/users?q=${encodeURIComponent(session.username)}`}>{session.username}</Link>
    ) : (
      `#${session.user_id ?? '—'}`
    );
  };

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void queries.invalidateQueries({ queryKey: ['sessions', projectId] })}>
            {t(`${texts}.refresh`)}
          </Button>
          <Button danger disabled={live === 0} onClick={forceEveryone}>
            {t(`${texts}.everyone`)}
          </Button>
        </Space>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      <ListFilters list={sessions} name="session-filters">
        <Form.Item name="type">
          <Select
            aria-label={t(`${texts}.filters.type`)}
            placeholder={t(`${texts}.filters.type`)}
            allowClear
            style={{ width: 160 }}
            options={SESSION_TYPES.map((type) => ({ value: type, label: t(`${texts}.types.${type}`) }))}
          />
        </Form.Item>
        <Form.Item name="machine_id">
          <Input
            aria-label={t(`${texts}.filters.device`)}
            placeholder={t(`${texts}.filters.device`)}
            allowClear
            maxLength={128}
          />
        </Form.Item>
      </ListFilters>
      {list.error && <ErrorAlert error={list.error} />}
      {usage.error && <ErrorAlert error={usage.error} />}
      <Table<LiveSession>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={sessions.pagination(list.data?.total)}
        columns={[
          {
            title: t(`${texts}.type`),
            dataIndex: 'type',
            render: (type: LiveSession['type']) => (
              <Tag color={type === 'card' ? 'blue' : 'purple'}>{t(`${texts}.types.${type}`)}</Tag>
            ),
          },
          { title: t(`${texts}.who`), key: 'who', render: (_, session) => who(session) },
          {
            title: t(`${texts}.device`),
            dataIndex: 'machine_id',
            render: (machine: string) => <Typography.Text code>{machine}</Typography.Text>,
          },
          {
            title: t(`${texts}.address`),
            dataIndex: 'address',
            render: (address: string) => (address ? <Typography.Text code>{address}</Typography.Text> : '—'),
          },
          {
            title: t(`${texts}.lastHeartbeat`),
            key: 'heartbeat',
            render: (_, session) => {
              const last = session.last_heartbeat_at ?? session.created_at;
              const quiet = (now - Date.parse(last)) / 1000;
              const silent = quiet > silentAfter;
              return (
                <Space orientation="vertical" size={0} data-testid={`heartbeat-${session.id}`}>
                  <span>
                    <Tooltip
                      title={
                        silent
                          ? t(`${texts}.silentHelp`, { span: format.span(quiet), interval: format.span(interval) })
                          : t(`${texts}.beatingHelp`)
                      }
                    >
                      <Tag color={silent ? 'orange' : 'green'}>{t(silent ? `${texts}.silent` : `${texts}.beating`)}</Tag>
                    </Tooltip>
                    {session.last_heartbeat_at ? format.ago(session.last_heartbeat_at, now) : t('time.noHeartbeat')}
                  </span>
                  {session.last_heartbeat_at && (
                    <Typography.Text type="secondary">{format.dateTime(session.last_heartbeat_at)}</Typography.Text>
                  )}
                </Space>
              );
            },
          },
          {
            title: t(`${texts}.age`),
            key: 'age',
            render: (_, session) => (
              <Space orientation="vertical" size={0}>
                <span>{format.span((now - Date.parse(session.created_at)) / 1000)}</span>
                <Typography.Text type="secondary">
                  {t(`${texts}.created`)} {format.dateTime(session.created_at)}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t(`${texts}.expires`),
            dataIndex: 'expires_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right' as const,
            render: (_, session) => (
              <Button
                size="small"
                danger
                aria-label={`${t(`${texts}.offline`)} ${session.card_code ?? session.username ?? session.id}`}
                onClick={() => forceOffline(session)}
              >
                {t(`${texts}.offline`)}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}
