import { CheckCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Result, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { IMPORT_COLUMNS, reportOf } from './card-import';
import { importCards, type ImportReport } from './card-queries';
import { cardKeys } from './card-queries';

type Problem = ImportReport['problems'][number];

interface Props {
  projectId: string;
  onClose: () => void;
  onShowBatch: (batchId: string) => void;
}

/**
 * A CSV of existing codes: the file is checked first (a dry run: every problem, by line), then
 * imported after a confirmation, all or nothing, as a new batch.
 */
export function ImportCardsModal({ projectId, onClose, onShowBatch }: Props) {
  const { t } = useTranslation();
  const confirmDanger = useConfirmDanger();
  const queries = useQueryClient();
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<ImportReport>();
  const check = useMutation({ mutationFn: (chosen: File) => importCards(projectId, chosen, true), onSuccess: setReport });
  const run = useMutation({
    mutationFn: (chosen: File) => importCards(projectId, chosen, false),
    onSuccess: () => void queries.invalidateQueries({ queryKey: cardKeys.ofProject(projectId) }),
    onError: (error) => setReport(reportOf(error) ?? report),
  });
  const choose = (chosen: File) => {
    setFile(chosen);
    setReport(undefined);
    check.reset();
    run.reset();
    check.mutate(chosen);
    return false; // kept here, sent by the dry run and the import, never by the Upload itself
  };
  const importable = file && report && report.problem_count === 0 && report.rows > 0;
  const confirmImport = () =>
    file &&
    report &&
    confirmDanger({
      title: t('cardsManage.import.confirmTitle', { count: report.rows }),
      content: t('cardsManage.import.confirmText'),
      okText: t('cardsManage.import.run'),
      onOk: () => run.mutateAsync(file),
    });

  if (run.data) {
    const done = run.data;
    return (
      <Modal
        open
        title={t('cardsManage.import.title')}
        onCancel={onClose}
        footer={<Button onClick={onClose}>{t('common.close')}</Button>}
      >
        <Result
          status="success"
          title={t('cardsManage.import.doneTitle', { count: done.imported })}
          subTitle={t('cardsManage.import.doneText', { batch: done.batch_id })}
          extra={
            <Button type="primary" onClick={() => onShowBatch(done.batch_id)}>
              {t('generate.showBatch')}
            </Button>
          }
        />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t('cardsManage.import.title')}
      onCancel={onClose}
      width={760}
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" disabled={!importable} loading={run.isPending} onClick={confirmImport}>
            {t('cardsManage.import.run')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph>{t('cardsManage.import.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('cardsManage.import.columns')}{' '}
        {IMPORT_COLUMNS.map((column, i) => (
          <span key={column}>
            {i > 0 && ', '}
            <Typography.Text code>{column}</Typography.Text>
          </span>
        ))}
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('cardsManage.import.rules')}</Typography.Paragraph>
      <Upload accept=".csv,text/csv" maxCount={1} showUploadList={false} beforeUpload={choose}>
        <Button icon={<UploadOutlined />} loading={check.isPending}>
          {t('cardsManage.import.choose')}
        </Button>
      </Upload>
      {file && <Typography.Text style={{ marginLeft: 8 }}>{file.name}</Typography.Text>}
      {check.error && <ErrorAlert error={check.error} />}
      {run.error && <ErrorAlert error={run.error} />}
      {report && <ImportReportView report={report} />}
    </Modal>
  );
}

/** The dry run's answer: the counts, then each problem with its line and column. */
function ImportReportView({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  if (report.rows === 0) return <Alert style={{ marginTop: 16 }} type="warning" showIcon title={t('cardsManage.import.empty')} />;
  if (report.problem_count === 0) {
    return (
      <Alert
        style={{ marginTop: 16 }}
        type="success"
        icon={<CheckCircleOutlined />}
        showIcon
        title={t('cardsManage.import.allValid', { count: report.rows })}
      />
    );
  }
  return (
    <div style={{ marginTop: 16 }} data-testid="import-report">
      <Alert
        type="error"
        showIcon
        title={t('cardsManage.import.problems', { count: report.problem_count, rows: report.rows, valid: report.valid })}
        description={
          report.problems.length < report.problem_count
            ? t('cardsManage.import.firstShown', { shown: report.problems.length })
            : t('cardsManage.import.fix')
        }
      />
      <Table<Problem>
        size="small"
        style={{ marginTop: 8 }}
        rowKey={(problem) => `${problem.line}:${problem.field ?? ''}:${problem.message}`}
        dataSource={report.problems}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('cardsManage.import.line'), dataIndex: 'line', width: 70 },
          {
            title: t('cardsManage.import.field'),
            dataIndex: 'field',
            render: (field: string | null) =>
              field ? <Typography.Text code>{field}</Typography.Text> : t('cardsManage.import.wholeLine'),
          },
          {
            title: t('cardsManage.import.message'),
            dataIndex: 'reason',
            // The console's words for the service's reason; its English message for a reason the console does not know.
            render: (_: unknown, problem: Problem) =>
              t(`importProblem.${problem.reason}`, { ...problem.params, defaultValue: problem.message }),
          },
        ]}
      />
    </div>
  );
}
