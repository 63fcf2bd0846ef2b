import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { FilterButtons } from '../../components/FilterButtons';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { serverPaging } from '../../components/paging';
import { useUrlList } from '../../components/url-list';
import { FILTER_FAMILIES, LOG_FILTER_NAMES, isSuccessCode, logListQuery, type LogFilters, type LoginLog } from './log-queries';

/** Every login attempt of a project, newest first, searchable by request id, device, result, family and interface. */
export function LogsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { projectId = '' } = useParams();
  const { filters, page, pageSize, show, key } = useUrlList<LogFilters>(LOG_FILTER_NAMES, 50);
  const list = useQuery(logListQuery(projectId, filters, page, pageSize));
  const [form] = Form.useForm<LogFilters>();
  const texts = 'operations.logs';


  const columns = [
    { title: t(`${texts}.time`), dataIndex: 'created_at', render: (at: string) => format.dateTime(at) },
    { title: t(`${texts}.family`), dataIndex: 'family', render: (family: LoginLog['family']) => t(`${texts}.families.${family}`) },
    { title: t(`${texts}.interface`), dataIndex: 'interface', render: (name: string) => <Typography.Text code>{name}</Typography.Text> },
    {
      title: t(`${texts}.result`),
      dataIndex: 'result_code',
      render: (code: number) => (isSuccessCode(code) ? <Tag color="green">{t(`${texts}.success`)}</Tag> : <Tag color="red">{code}</Tag>),
    },
    {
      title: t(`${texts}.card`),
      dataIndex: 'card_code',
      render: (code: string | null, log: LoginLog) => (code && log.card_id ? <Link to={`/projects/${projectId}/cards/${log.card_id}`}>{code}</Link> : '—'),
    },
    { title: t(`${texts}.device`), dataIndex: 'machine_code', render: (machine: string | null) => machine ?? '—' },
    { title: t(`${texts}.address`), dataIndex: 'ip', responsive: ['lg' as const], render: (ip: string | null) => ip ?? '—' },
    { title: t(`${texts}.requestId`), dataIndex: 'request_id', responsive: ['md' as const], render: (id: string) => <Typography.Text copyable code>{id}</Typography.Text> },
  ];

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      <Form form={form} name="log-filters" layout="inline" className="filters" initialValues={filters} onFinish={(values) => show(values)} key={key}>
        <Form.Item name="request_id">
          <Input aria-label={t(`${texts}.filters.requestId`)} placeholder={t(`${texts}.filters.requestId`)} allowClear maxLength={64} />
        </Form.Item>
        <Form.Item name="machine_code">
          <Input aria-label={t(`${texts}.filters.device`)} placeholder={t(`${texts}.filters.device`)} allowClear maxLength={128} />
        </Form.Item>
        <Form.Item name="result_code" rules={[{ pattern: /^\d{1,9}$/, message: t(`${texts}.filters.result`) }]}>
          <Input aria-label={t(`${texts}.filters.result`)} placeholder={t(`${texts}.filters.result`)} allowClear inputMode="numeric" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="family">
          <Select aria-label={t(`${texts}.filters.family`)} placeholder={t(`${texts}.filters.family`)} allowClear style={{ width: 140 }}
            options={FILTER_FAMILIES.map((family) => ({ value: family, label: t(`${texts}.families.${family}`) }))} />
        </Form.Item>
        <Form.Item name="interface">
          <Input aria-label={t(`${texts}.filters.interface`)} placeholder={t(`${texts}.filters.interface`)} allowClear maxLength={32} />
        </Form.Item>
        <FilterButtons onReset={() => show({})} />
      </Form>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<LoginLog>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={serverPaging(t, {
          page,
          pageSize,
          total: list.data?.total,
          sizes: [20, 50, 100],
          onChange: (nextPage, nextSize) => show(filters, nextSize === pageSize ? nextPage : 1, nextSize),
        })}
      />
    </>
  );
}
