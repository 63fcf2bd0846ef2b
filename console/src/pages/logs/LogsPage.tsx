import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Form, Input, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FilterButtons } from '../../components/FilterButtons';
import { useFormat } from '../../components/format';
import { useListPage } from '../../components/list-page';
import { catalogEn } from '../../i18n/catalog';
import { explanationText } from './explanation';
import {
  FILTER_FAMILIES,
  REQUEST_FILTER_NAMES,
  requestListQuery,
  requestQuery,
  type RequestEntry,
  type RequestFilters,
} from './log-queries';
import { ResultTag } from './request-labels';

const texts = 'requests';
const CODES = Object.keys(catalogEn)
  .map(Number)
  .sort((a, b) => a - b);

/**
 * The request log (decisions §22): every client request of a project, newest first, with each
 * refusal's text in the chosen language and, per request, the explanation of the rule that decided.
 * Filters live in the address; the date range is entered in the user's time zone.
 */
export function LogsPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { projectId = '' } = useParams();
  const requests = useListPage<RequestFilters>(REQUEST_FILTER_NAMES, 50);
  const list = useQuery(requestListQuery(projectId, requests.filters, format.zone, requests.page, requests.pageSize));
  const [form] = Form.useForm<RequestFilters>();
  const [opened, setOpened] = useState<string | null>(null);

  const columns = [
    { title: t(`${texts}.time`), dataIndex: 'at', render: (at: string) => format.dateTime(at) },
    {
      title: t(`${texts}.family`),
      dataIndex: 'family',
      render: (family: string) => t(`operations.logs.families.${family}`, { defaultValue: family }),
    },
    {
      title: t(`${texts}.interface`),
      dataIndex: 'interface',
      render: (name: string | null, entry: RequestEntry) => <Typography.Text code>{name ?? entry.route ?? '—'}</Typography.Text>,
    },
    { title: t(`${texts}.result`), dataIndex: 'result_code', render: (code: number) => <ResultTag code={code} /> },
    {
      title: t(`${texts}.card`),
      dataIndex: 'card_code',
      render: (code: string | null, entry: RequestEntry) =>
        code && entry.card_id ? <Link to={`/projects/${projectId}/cards/${entry.card_id}`}>{code}</Link> : (code ?? '—'),
    },
    { title: t(`${texts}.device`), dataIndex: 'machine_code', render: (machine: string | null) => machine ?? '—' },
    { title: t(`${texts}.address`), dataIndex: 'ip', responsive: ['lg' as const], render: (ip: string | null) => ip ?? '—' },
    {
      title: t(`${texts}.duration`),
      dataIndex: 'duration_ms',
      responsive: ['xl' as const],
      render: (ms: number | null) => (ms === null ? '—' : t(`${texts}.durationMs`, { count: ms })),
    },
    {
      title: t(`${texts}.requestId`),
      dataIndex: 'request_id',
      responsive: ['md' as const],
      render: (id: string) => (
        <Typography.Text copyable code>
          {id}
        </Typography.Text>
      ),
    },
    {
      title: '',
      key: 'details',
      render: (_: unknown, entry: RequestEntry) => (
        <Button
          size="small"
          aria-label={t(`${texts}.detailsOf`, { id: entry.request_id })}
          onClick={() => setOpened(entry.request_id)}
        >
          {t(`${texts}.details`)}
        </Button>
      ),
    },
  ];

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`, { zone: format.zone })}</Typography.Paragraph>
      <Form
        form={form}
        name="request-filters"
        layout="inline"
        className="filters"
        initialValues={requests.filters}
        onFinish={(values) => requests.show(values)}
        key={requests.key}
      >
        <Form.Item name="request_id">
          <Input
            aria-label={t(`${texts}.filters.requestId`)}
            placeholder={t(`${texts}.filters.requestId`)}
            allowClear
            maxLength={64}
          />
        </Form.Item>
        <Form.Item name="card">
          <Input aria-label={t(`${texts}.filters.card`)} placeholder={t(`${texts}.filters.card`)} allowClear maxLength={128} />
        </Form.Item>
        <Form.Item name="machine_code">
          <Input
            aria-label={t(`${texts}.filters.device`)}
            placeholder={t(`${texts}.filters.device`)}
            allowClear
            maxLength={128}
          />
        </Form.Item>
        <Form.Item name="ip">
          <Input
            aria-label={t(`${texts}.filters.address`)}
            placeholder={t(`${texts}.filters.address`)}
            allowClear
            maxLength={64}
          />
        </Form.Item>
        <Form.Item name="result_code">
          <Select
            aria-label={t(`${texts}.filters.result`)}
            placeholder={t(`${texts}.filters.result`)}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 280 }}
            popupMatchSelectWidth={false}
            options={[
              { value: '0', label: t(`${texts}.filters.successes`) },
              ...CODES.map((code) => ({ value: String(code), label: `${code} · ${t(`catalog.${code}`)}` })),
            ]}
          />
        </Form.Item>
        <Form.Item name="family">
          <Select
            aria-label={t(`${texts}.filters.family`)}
            placeholder={t(`${texts}.filters.family`)}
            allowClear
            style={{ width: 140 }}
            options={FILTER_FAMILIES.map((family) => ({ value: family, label: t(`operations.logs.families.${family}`) }))}
          />
        </Form.Item>
        <Form.Item name="from" label={t(`${texts}.filters.from`)}>
          <Input type="datetime-local" aria-label={t(`${texts}.filters.from`)} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="to" label={t(`${texts}.filters.to`)}>
          <Input type="datetime-local" aria-label={t(`${texts}.filters.to`)} style={{ width: 200 }} />
        </Form.Item>
        {/* The form instance outlives the remount (key), so its fields are emptied here, not by initialValues; also
            when the address stays the same (ListFilters's Reset would leave what was typed), hence this own form. */}
        <FilterButtons
          onReset={() => {
            form.setFieldsValue(Object.fromEntries(REQUEST_FILTER_NAMES.map((name) => [name, undefined])));
            requests.show({});
          }}
        />
      </Form>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<RequestEntry>
        rowKey="request_id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        pagination={requests.pagination(list.data?.total, [20, 50, 100])}
      />
      {opened && <RequestDrawer projectId={projectId} requestId={opened} onClose={() => setOpened(null)} />}
    </>
  );
}

/** One request: every field, what the refusing rule said, and why it was answered so (its `explanation`, in the reader's language and zone). */
export function RequestDrawer({ projectId, requestId, onClose }: { projectId: string; requestId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const format = useFormat();
  const request = useQuery(requestQuery(projectId, requestId));
  const r = request.data;
  return (
    <Drawer open title={`${t(`${texts}.detail.title`)} ${requestId}`} onClose={onClose} size="large" loading={request.isPending}>
      {request.error && <ErrorAlert error={request.error} />}
      {r && (
        <Descriptions bordered size="small" column={1}>
          <Descriptions.Item label={t(`${texts}.detail.explain`)}>
            <Typography.Text strong data-testid="explain">
              {explanationText(r.explanation, r.explain, t, (iso) => format.dateTime(iso))}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.result`)}>
            <ResultTag code={r.result_code} />
          </Descriptions.Item>
          {/* Only when the rule said more than the code's text, which the result already shows in the chosen language. */}
          {r.reason && r.reason !== catalogEn[r.result_code] && (
            <Descriptions.Item label={t(`${texts}.detail.reason`)}>{r.reason}</Descriptions.Item>
          )}
          <Descriptions.Item label={t(`${texts}.time`)}>
            {format.dateTime(r.at)} ({format.zone})
          </Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.family`)}>
            {t(`operations.logs.families.${r.family}`, { defaultValue: r.family })}
          </Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.interface`)}>{r.interface ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.detail.route`)}>{r.route ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.card`)}>
            {r.card_id ? <Link to={`/projects/${projectId}/cards/${r.card_id}`}>{r.card_code}</Link> : (r.card_code ?? '—')}
          </Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.device`)}>{r.machine_code ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.address`)}>{r.ip ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.duration`)}>
            {r.duration_ms === null ? '—' : t(`${texts}.durationMs`, { count: r.duration_ms })}
          </Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.requestId`)}>
            <Typography.Text copyable code>
              {r.request_id}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
