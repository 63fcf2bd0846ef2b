import { Button, Form, Input, Select, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { useAccessList } from './access-list';
import {
  addBlacklistEntry,
  addSite,
  blacklistQuery,
  removeBlacklistEntry,
  removeSite,
  sitesQuery,
  type BlacklistEntry as Entry,
  type NewBlacklistEntry,
  type NewSite,
  type Site,
} from './access-queries';

function DeleteButton({ label, title, onOk }: { label: string; title: string; onOk: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const confirmDanger = useConfirmDanger();
  return (
    <Button
      size="small"
      danger
      aria-label={`${t('common.delete')} ${label}`}
      onClick={() => confirmDanger({ title, content: '', okText: t('common.delete'), onOk })}
    >
      {t('common.delete')}
    </Button>
  );
}

/** Sites authorized for licence verification: add with an optional licence and note, remove. */
export function SitesTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [form] = Form.useForm<NewSite>();
  const { list, add, remove } = useAccessList(sitesQuery(projectId), {
    add: (draft: NewSite) =>
      addSite(projectId, {
        domain: draft.domain.trim(),
        ...(draft.licence ? { licence: draft.licence } : {}),
        ...(draft.note ? { note: draft.note } : {}),
      }).then(() => form.resetFields()),
    remove: (item) => removeSite(projectId, item.id),
  });
  const texts = 'access.sites';
  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Form form={form} name="new-site" layout="inline" className="filters" onFinish={(draft) => add.mutate(draft)}>
        <Form.Item name="domain" rules={[{ required: true, whitespace: true }, { max: 253 }]}>
          <Input aria-label={t(`${texts}.domain`)} placeholder="*.example.com" maxLength={253} />
        </Form.Item>
        <Form.Item name="licence" rules={[{ max: 128 }]}>
          <Input aria-label={t(`${texts}.licence`)} placeholder={t(`${texts}.licence`)} maxLength={128} />
        </Form.Item>
        <Form.Item name="note" rules={[{ max: 200 }]}>
          <Input aria-label={t(`${texts}.note`)} placeholder={t(`${texts}.note`)} maxLength={200} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('access.add')}
        </Button>
      </Form>
      {add.error && <ErrorAlert error={add.error} />}
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Site>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          { title: t(`${texts}.domain`), dataIndex: 'domain' },
          {
            title: t(`${texts}.licence`),
            dataIndex: 'licence',
            render: (licence: string | null) => (licence ? <Typography.Text code>{licence}</Typography.Text> : '—'),
          },
          { title: t(`${texts}.note`), dataIndex: 'note', render: (note: string | null) => note ?? '—' },
          {
            title: t('access.created'),
            dataIndex: 'created_at',
            responsive: ['lg' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: '',
            key: 'delete',
            render: (_, item) => (
              <DeleteButton
                label={item.domain}
                title={t(`${texts}.deleteTitle`, { name: item.domain })}
                onOk={() => remove.mutateAsync(item)}
              />
            ),
          },
        ]}
      />
    </>
  );
}

/** Domains and addresses refused by licence verification: add, remove. */
export function BlacklistTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const [form] = Form.useForm<NewBlacklistEntry>();
  const { list, add, remove } = useAccessList(blacklistQuery(projectId), {
    add: (draft: NewBlacklistEntry) =>
      addBlacklistEntry(projectId, { kind: draft.kind, value: draft.value.trim() }).then(() => form.resetFields()),
    remove: (item) => removeBlacklistEntry(projectId, item.id),
  });
  const texts = 'access.blacklist';
  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Form
        form={form}
        name="new-blacklist"
        layout="inline"
        className="filters"
        initialValues={{ kind: 'domain' }}
        onFinish={(draft) => add.mutate(draft)}
      >
        <Form.Item name="kind">
          <Select
            aria-label={t(`${texts}.kind`)}
            style={{ width: 120 }}
            options={(['domain', 'ip'] as const).map((kind) => ({ value: kind, label: t(`${texts}.kinds.${kind}`) }))}
          />
        </Form.Item>
        <Form.Item name="value" rules={[{ required: true, whitespace: true }, { max: 253 }]}>
          <Input aria-label={t(`${texts}.value`)} placeholder={t(`${texts}.value`)} maxLength={253} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('access.add')}
        </Button>
      </Form>
      {add.error && <ErrorAlert error={add.error} />}
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Entry>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          { title: t(`${texts}.kind`), dataIndex: 'kind', render: (kind: Entry['kind']) => t(`${texts}.kinds.${kind}`) },
          { title: t(`${texts}.value`), dataIndex: 'value' },
          {
            title: t('access.created'),
            dataIndex: 'created_at',
            responsive: ['md' as const],
            render: (at: string) => format.dateTime(at),
          },
          {
            title: '',
            key: 'delete',
            render: (_, item) => (
              <DeleteButton
                label={item.value}
                title={t(`${texts}.deleteTitle`, { name: item.value })}
                onOk={() => remove.mutateAsync(item)}
              />
            ),
          },
        ]}
      />
    </>
  );
}
