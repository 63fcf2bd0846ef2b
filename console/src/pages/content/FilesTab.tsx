import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Progress, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { contentKeys, deleteFile, filesQuery, uploadFile, type StoredFile } from './content-queries';

const MAX_BYTES_SHOWN = '50 MiB'; // FILE_MAX_BYTES' default; the service's refusal says the real limit

export const sizeOf = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** The project's files: upload with a progress bar, the list, deletion after a confirmation. */
export function FilesTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const picker = useRef<HTMLInputElement>(null);
  const files = useQuery(filesQuery(projectId));
  const [progress, setProgress] = useState<{ name: string; percent: number }>();
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(projectId, file, (percent) => setProgress({ name: file.name, percent })),
    onSuccess: (stored) => {
      void queries.invalidateQueries({ queryKey: contentKeys.files(projectId) });
      void message.success(t('content.files.uploaded', { name: stored.name }));
    },
    onSettled: () => setProgress(undefined),
  });
  const remove = useMutation({
    mutationFn: (file: StoredFile) => deleteFile(projectId, file.id),
    onSuccess: () => void queries.invalidateQueries({ queryKey: contentKeys.files(projectId) }),
    onError: notifyError,
  });

  return (
    <>
      <Typography.Paragraph type="secondary">{t('content.files.help', { size: MAX_BYTES_SHOWN })}</Typography.Paragraph>
      <input
        ref={picker}
        type="file"
        hidden
        aria-label={t('content.files.upload')}
        data-testid="file-picker"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) upload.mutate(file);
          event.target.value = '';
        }}
      />
      <Button icon={<UploadOutlined />} loading={upload.isPending} onClick={() => picker.current?.click()}>
        {t('content.files.upload')}
      </Button>
      {progress && (
        <div className="upload-progress" aria-live="polite">
          {t('content.files.uploading', { name: progress.name })}
          <Progress percent={progress.percent} data-testid="upload-progress" />
        </div>
      )}
      {upload.error && <ErrorAlert error={upload.error} />}
      {files.error && <ErrorAlert error={files.error} />}
      <Table<StoredFile>
        rowKey="id"
        size="small"
        loading={files.isPending}
        dataSource={files.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('content.files.empty') }}
        columns={[
          { title: t('content.files.name'), dataIndex: 'name' },
          { title: t('content.files.size'), dataIndex: 'size', render: sizeOf },
          { title: t('content.files.downloads'), dataIndex: 'download_count' },
          { title: t('content.created'), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
          {
            title: '',
            key: 'delete',
            render: (_, file) => (
              <Button
                size="small"
                danger
                aria-label={`${t('common.delete')} ${file.name}`}
                onClick={() =>
                  confirmDanger({
                    title: t('content.files.deleteTitle', { name: file.name }),
                    content: t('content.files.deleteText'),
                    okText: t('common.delete'),
                    onOk: () => remove.mutateAsync(file),
                  })
                }
              >
                {t('common.delete')}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}
