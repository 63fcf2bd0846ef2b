import { ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useServerPage } from '../../components/use-server-page';
import { mailKeys, mailListQuery, resendMail, type Mail, type MailAttempt as Attempt } from './mail-queries';

const STATUS_COLOURS: Record<Mail['status'], string> = { pending: 'gold', sent: 'green', failed: 'red' };
const texts = 'mail';

/** Every attempt of one mail, oldest first: when, the server's reply code, how long it took, and its error. */
function Attempts({ mail }: { mail: Mail }) {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const ms = (value: number) =>
    new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'millisecond', unitDisplay: 'short' }).format(value);
  return (
    <Table<Attempt>
      rowKey="attempt"
      size="small"
      pagination={false}
      dataSource={mail.attempt_log}
      locale={{ emptyText: t(`${texts}.noAttempt`) }}
      columns={[
        { title: t(`${texts}.attempt`), dataIndex: 'attempt', width: 80 },
        { title: t(`${texts}.at`), dataIndex: 'attempted_at', render: (at: string) => format.dateTime(at) },
        {
          title: t(`${texts}.reply`),
          dataIndex: 'smtp_code',
          render: (code: number | null) =>
            code === null ? (
              <Tag color="red">{t(`${texts}.noReply`)}</Tag>
            ) : (
              <Tag color={code < 400 ? 'green' : 'red'}>{code}</Tag>
            ),
        },
        { title: t(`${texts}.duration`), dataIndex: 'duration_ms', render: (value: number) => ms(value) },
        { title: t(`${texts}.error`), dataIndex: 'error', render: (error: string | null) => error ?? '' },
      ]}
    />
  );
}

/**
 * A project's mail log (decisions §26): each mail's recipient, kind, status, attempts and last
 * error, newest first, expandable to its attempts; any mail can be sent again.
 */
export function MailLogPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const { projectId = '' } = useParams();
  const paging = useServerPage();
  const key = mailKeys.ofProject(projectId);
  const list = useQuery(mailListQuery(projectId, paging.query));
  const resend = useMutation({
    mutationFn: (mail: Mail) => resendMail(projectId, mail.id),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: key });
      void message.success(t(`${texts}.resent`));
    },
    onError: notifyError,
  });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button icon={<ReloadOutlined />} onClick={() => void queries.invalidateQueries({ queryKey: key })}>
          {t(`${texts}.refresh`)}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.intro`)}</Typography.Paragraph>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Mail>
        rowKey="id"
        size="small"
        className="mail-log"
        loading={list.isPending}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        expandable={{ expandedRowRender: (mail) => <Attempts mail={mail} /> }}
        pagination={paging.pagination(list.data?.total)}
        columns={[
          { title: t(`${texts}.to`), dataIndex: 'to' },
          {
            title: t(`${texts}.template`),
            dataIndex: 'template',
            render: (template: Mail['template']) => t(`${texts}.templates.${template}`),
          },
          {
            title: t(`${texts}.status`),
            dataIndex: 'status',
            render: (status: Mail['status']) => <Tag color={STATUS_COLOURS[status]}>{t(`${texts}.statuses.${status}`)}</Tag>,
          },
          { title: t(`${texts}.attempts`), dataIndex: 'attempts' },
          {
            title: t(`${texts}.lastError`),
            dataIndex: 'last_error',
            render: (error: string | null) => (
              <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }} style={{ marginBottom: 0, maxWidth: 360 }}>
                {error ?? ''}
              </Typography.Paragraph>
            ),
          },
          { title: t(`${texts}.created`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: t(`${texts}.sent`),
            dataIndex: 'sent_at',
            responsive: ['md' as const],
            render: (at: string | null) => format.dateTime(at, '—'),
          },
          {
            title: t(`${texts}.next`),
            dataIndex: 'next_attempt_at',
            responsive: ['md' as const],
            render: (at: string | null) => format.dateTime(at, '—'),
          },
          {
            title: '',
            key: 'resend',
            render: (_, mail) => (
              <Button
                size="small"
                loading={resend.isPending && resend.variables?.id === mail.id}
                aria-label={`${t(`${texts}.resend`)} ${mail.to}`}
                onClick={() => resend.mutate(mail)}
              >
                {t(`${texts}.resend`)}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}
