import { DatabaseOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { saveFile } from '../cards/card-queries';
import { backupListQuery, deleteBackup, downloadBackup, makeBackup, platformKeys, type Backup } from './platform-queries';

const texts = 'backups';

/** "12.3 MB": decimal units, one decimal from kB on, in the console's language. */
export function humanBytes(bytes: number, language: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/**
 * The service's backups (decisions §24), platform admins only: the list, newest first; make one now;
 * download an archive (through the API: it needs the Bearer token and, with two-factor sign-in, a
 * fresh code, which the step-up dialog asks for); delete one, confirmed.
 */
export function BackupsPage() {
  const { t, i18n } = useTranslation();
  const format = useFormat();
  const client = useQueryClient();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const [withoutLogs, setWithoutLogs] = useState(false);
  const list = useQuery(backupListQuery());
  const refresh = () => void client.invalidateQueries({ queryKey: platformKeys.backups });
  const make = useMutation({
    mutationFn: () => makeBackup(withoutLogs),
    onSuccess: (made) => {
      void message.success(t(`${texts}.made`, { file: made.file }));
      refresh();
    },
    onError: notifyError,
  });
  const download = useMutation({
    mutationFn: async (backup: Backup) => saveFile(await downloadBackup(backup.id), backup.file),
    onError: notifyError,
  });
  const remove = useMutation({
    mutationFn: (backup: Backup) => deleteBackup(backup.id),
    onSuccess: () => {
      void message.success(t(`${texts}.deleted`));
      refresh();
    },
    onError: notifyError,
  });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Space wrap>
          <Checkbox checked={withoutLogs} onChange={(e) => setWithoutLogs(e.target.checked)}>
            {t(`${texts}.withoutLogs`)}
          </Checkbox>
          <Button type="primary" icon={<DatabaseOutlined />} loading={make.isPending} onClick={() => make.mutate()}>
            {t(`${texts}.make`)}
          </Button>
        </Space>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Backup>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={false}
        columns={[
          { title: t(`${texts}.time`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: t(`${texts}.trigger`),
            dataIndex: 'trigger',
            render: (trigger: Backup['trigger']) => (
              <Tag color={trigger === 'manual' ? 'blue' : 'default'}>{t(`${texts}.triggers.${trigger}`)}</Tag>
            ),
          },
          {
            title: t(`${texts}.size`),
            dataIndex: 'bytes',
            align: 'right' as const,
            render: (bytes: number) => <span title={String(bytes)}>{humanBytes(bytes, i18n.language)}</span>,
          },
          { title: t(`${texts}.schema`), dataIndex: 'schema', responsive: ['lg' as const] },
          {
            title: t(`${texts}.sha256`),
            dataIndex: 'sha256',
            render: (sha256: string) => (
              <Typography.Text code title={sha256}>
                {sha256.slice(0, 12)}…
              </Typography.Text>
            ),
          },
          { title: t(`${texts}.file`), dataIndex: 'file', responsive: ['xxl' as const] },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, backup: Backup) => (
              <Space>
                <Button
                  size="small"
                  aria-label={`${t(`${texts}.download`)} ${backup.file}`}
                  loading={download.isPending && download.variables?.id === backup.id}
                  onClick={() => download.mutate(backup)}
                >
                  {t(`${texts}.download`)}
                </Button>
                <Button
                  size="small"
                  danger
                  aria-label={`${t(`${texts}.delete`)} ${backup.file}`}
                  onClick={() =>
                    confirmDanger({
                      title: t(`${texts}.deleteTitle`, { time: format.dateTime(backup.created_at) }),
                      content: t(`${texts}.deleteContent`),
                      okText: t(`${texts}.delete`),
                      onOk: () => remove.mutateAsync(backup),
                    })
                  }
                >
                  {t(`${texts}.delete`)}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
