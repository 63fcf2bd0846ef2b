import { DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { ListFilters, useListPage } from '../../components/list-page';
import { projectListQuery } from '../projects/project-queries';
import { AUDIT_FILTER_NAMES, auditListQuery, downloadAuditCsv, type AuditEntry, type AuditFilters } from './audit-queries';

const texts = 'audit';

/** A recorded value as a reader takes it: text as is, anything else as JSON. */
function shown(value: unknown): string {
  if (value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields an action changed, each with its value before and after (secrets arrive as `[redacted]`). */
function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const before = entry.changes?.before ?? {};
  const after = entry.changes?.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) return <Typography.Text type="secondary">{t(`${texts}.noChanges`)}</Typography.Text>;
  return (
    <Table
      size="small"
      rowKey="field"
      pagination={false}
      data-testid="audit-changes"
      dataSource={fields.map((field) => ({ field, before: shown(before[field]), after: shown(after[field]) }))}
      columns={[
        {
          title: t(`${texts}.field`),
          dataIndex: 'field',
          render: (field: string) => <Typography.Text code>{field}</Typography.Text>,
        },
        { title: t(`${texts}.before`), dataIndex: 'before' },
        { title: t(`${texts}.after`), dataIndex: 'after' },
      ]}
    />
  );
}

/**
 * The admin audit trail (decisions, "Two-factor sign-in and the admin audit trail"): every admin write
 * and refusal, newest first, filtered in the address, each row opening to its before and after.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const format = useFormat();
  const audit = useListPage<AuditFilters>(AUDIT_FILTER_NAMES, 50);
  const list = useQuery(auditListQuery(audit.filters, format.zone, audit.page, audit.pageSize));
  const projects = useQuery(projectListQuery(1, 100, ''));
  const projectName = new Map((projects.data?.items ?? []).map((project) => [project.id, project.name]));
  const exportCsv = useMutation({
    mutationFn: () => downloadAuditCsv(audit.filters, format.zone),
    onSuccess: () => void message.success(t(`${texts}.exported`)),
  });

  const verb = (action: string) => {
    const last = action.split('.').pop() ?? action;
    return t(`${texts}.verbs.${last}`, { defaultValue: '' });
  };

  const columns = [
    { title: t(`${texts}.time`), dataIndex: 'at', render: (at: string) => format.dateTime(at) },
    {
      title: t(`${texts}.actor`),
      dataIndex: 'actor_username',
      render: (name: string | null, entry: AuditEntry) => (
        <>
          {name ?? '—'}
          {entry.actor_role && (
            <Typography.Text type="secondary">
              {' '}
              · {t(`roles.${entry.actor_role}`, { defaultValue: entry.actor_role })}
            </Typography.Text>
          )}
          {entry.actor_api_key_id && (
            <Typography.Text type="secondary">
              {' '}
              · {t(`${texts}.viaApiKey`, { id: entry.actor_api_key_id.slice(0, 8) })}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: t(`${texts}.action`),
      dataIndex: 'action',
      render: (action: string) => (
        <>
          <Typography.Text code>{action}</Typography.Text> {verb(action)}
        </>
      ),
    },
    {
      title: t(`${texts}.resource`),
      dataIndex: 'resource_type',
      render: (type: string, entry: AuditEntry) => (
        <>
          {type === 'auth' ? t(`${texts}.account`) : t(`${texts}.resources.${type.replace(/\./g, '-')}`, { defaultValue: type })}
          {entry.resource_id && <Typography.Text type="secondary"> {entry.resource_id}</Typography.Text>}
        </>
      ),
    },
    {
      title: t(`${texts}.project`),
      dataIndex: 'project_id',
      render: (id: string | null) =>
        id ? <Link to={`/projects/${id}/overview`}>{projectName.get(id) ?? id.slice(0, 8)}</Link> : '—',
    },
    {
      title: t(`${texts}.outcome`),
      dataIndex: 'outcome',
      render: (outcome: AuditEntry['outcome'], entry: AuditEntry) =>
        outcome === 'success' ? (
          <Tag color="green">{t(`${texts}.outcomes.success`)}</Tag>
        ) : (
          <Tag color="red" title={entry.result_code ? t(`catalog.${entry.result_code}`, { defaultValue: '' }) : undefined}>
            {t(`${texts}.outcomes.refused`)}
            {entry.result_code ? ` · ${entry.result_code}` : ''}
          </Tag>
        ),
    },
    { title: t(`${texts}.address`), dataIndex: 'ip', responsive: ['lg' as const] },
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
  ];

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
        <Button icon={<DownloadOutlined />} onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
          {t(`${texts}.export`)}
        </Button>
      </div>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`, { zone: format.zone })}</Typography.Paragraph>
      {exportCsv.error && <ErrorAlert error={exportCsv.error} />}
      <ListFilters list={audit} name="audit-filters">
        <Form.Item name="actor">
          <Input aria-label={t(`${texts}.filters.actor`)} placeholder={t(`${texts}.filters.actor`)} allowClear maxLength={64} />
        </Form.Item>
        <Form.Item name="action">
          <Input
            aria-label={t(`${texts}.filters.action`)}
            placeholder={t(`${texts}.filters.action`)}
            allowClear
            maxLength={80}
            style={{ width: 260 }}
          />
        </Form.Item>
        <Form.Item name="resource_type">
          <Input
            aria-label={t(`${texts}.filters.resourceType`)}
            placeholder={t(`${texts}.filters.resourceType`)}
            allowClear
            maxLength={40}
          />
        </Form.Item>
        <Form.Item name="resource_id">
          <Input
            aria-label={t(`${texts}.filters.resourceId`)}
            placeholder={t(`${texts}.filters.resourceId`)}
            allowClear
            maxLength={128}
          />
        </Form.Item>
        <Form.Item name="project_id">
          <Select
            aria-label={t(`${texts}.filters.project`)}
            placeholder={t(`${texts}.filters.project`)}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 200 }}
            options={(projects.data?.items ?? []).map((project) => ({ value: project.id, label: project.name }))}
          />
        </Form.Item>
        <Form.Item name="outcome">
          <Select
            aria-label={t(`${texts}.filters.outcome`)}
            placeholder={t(`${texts}.filters.outcome`)}
            allowClear
            style={{ width: 140 }}
            options={(['success', 'refused'] as const).map((outcome) => ({
              value: outcome,
              label: t(`${texts}.outcomes.${outcome}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="from" label={t(`${texts}.filters.from`)}>
          <Input type="datetime-local" aria-label={t(`${texts}.filters.from`)} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="to" label={t(`${texts}.filters.to`)}>
          <Input type="datetime-local" aria-label={t(`${texts}.filters.to`)} style={{ width: 200 }} />
        </Form.Item>
      </ListFilters>
      {list.error && <ErrorAlert error={list.error} />}
      <Table<AuditEntry>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        expandable={{ expandedRowRender: (entry) => <Changes entry={entry} />, rowExpandable: () => true }}
        pagination={audit.pagination(list.data?.total, [20, 50, 100])}
      />
    </>
  );
}
