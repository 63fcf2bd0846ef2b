import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { rotateSigningKey, signingKeysQuery, type SigningKey } from './access-queries';

/** The program's answer-signing keys (decisions §15): public keys to pin, and a rotation with its retiring window. */
export function SigningKeysTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const keys = useQuery(signingKeysQuery(projectId));
  const rotate = useMutation({
    mutationFn: () => rotateSigningKey(projectId),
    onSuccess: () => void queries.invalidateQueries({ queryKey: signingKeysQuery(projectId).queryKey }),
    onError: notifyError,
  });
  const texts = 'access.keys';
  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Button
        danger
        loading={rotate.isPending}
        onClick={() =>
          confirmDanger({
            title: t(`${texts}.rotateTitle`),
            content: t(`${texts}.rotateText`),
            okText: t(`${texts}.rotate`),
            onOk: () => rotate.mutateAsync(),
          })
        }
      >
        {t(`${texts}.rotate`)}
      </Button>
      {keys.error && <ErrorAlert error={keys.error} />}
      <Table<SigningKey>
        rowKey="kid"
        size="small"
        loading={keys.isPending}
        dataSource={keys.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        style={{ marginTop: 12 }}
        columns={[
          { title: t(`${texts}.kid`), dataIndex: 'kid', render: (kid: string) => <Typography.Text code>{kid}</Typography.Text> },
          {
            title: t(`${texts}.status`),
            dataIndex: 'status',
            render: (status: SigningKey['status']) => (
              <Tag color={status === 'active' ? 'green' : 'orange'}>{t(`${texts}.statuses.${status}`)}</Tag>
            ),
          },
          {
            title: t(`${texts}.publicKey`),
            dataIndex: 'public_key',
            render: (key: string) => (
              <Typography.Text code copyable>
                {key}
              </Typography.Text>
            ),
          },
          { title: t('access.created'), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          { title: t(`${texts}.retireAt`), dataIndex: 'retire_at', render: (at: string | null) => format.dateTime(at, '—') },
        ]}
      />
    </>
  );
}
