import { Button, Form, Input, Space, Switch, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAccessList } from './access-list';
import {
  addVariable,
  removeVariable,
  setVariablePublic,
  variablesQuery,
  type NewVariable as Draft,
  type Variable,
} from './access-queries';

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** Remote variables: add, make public or not, delete. */
export function VariablesTab({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const confirmDanger = useConfirmDanger();
  const [form] = Form.useForm<Draft>();
  const { list, add, remove, refresh } = useAccessList(variablesQuery(projectId), {
    add: (draft: Draft) => addVariable(projectId, draft).then(() => form.resetFields()),
    remove: (item) => removeVariable(projectId, item.id),
  });
  const setPublic = (item: Variable, value: boolean) => void setVariablePublic(projectId, item.id, value).then(refresh);
  const texts = 'access.variables';

  return (
    <>
      <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
      <Form
        form={form}
        name="new-variable"
        layout="inline"
        className="filters"
        initialValues={{ public: false, value: '' }}
        onFinish={(draft) => add.mutate(draft)}
      >
        <Form.Item name="name" rules={[{ required: true }, { pattern: NAME, message: t(`${texts}.nameHelp`) }]}>
          <Input aria-label={t(`${texts}.name`)} placeholder={t(`${texts}.name`)} maxLength={64} />
        </Form.Item>
        <Form.Item name="value" rules={[{ max: 10_000 }]}>
          <Input aria-label={t(`${texts}.value`)} placeholder={t(`${texts}.value`)} maxLength={10_000} style={{ width: 260 }} />
        </Form.Item>
        <Form.Item name="public" label={t(`${texts}.public`)} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={add.isPending}>
          {t('access.add')}
        </Button>
      </Form>
      {add.error && <ErrorAlert error={add.error} />}
      {list.error && <ErrorAlert error={list.error} />}
      <Table<Variable>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.items}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t(`${texts}.empty`) }}
        columns={[
          {
            title: t(`${texts}.name`),
            dataIndex: 'name',
            render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
          },
          { title: t(`${texts}.value`), dataIndex: 'value', ellipsis: true },
          {
            title: t(`${texts}.public`),
            dataIndex: 'public',
            render: (value: boolean, item) => (
              <Switch
                checked={value}
                aria-label={`${t(`${texts}.public`)} ${item.name}`}
                onChange={(next) => setPublic(item, next)}
              />
            ),
          },
          {
            title: '',
            key: 'delete',
            render: (_, item) => (
              <Space>
                <Button
                  size="small"
                  danger
                  aria-label={`${t('common.delete')} ${item.name}`}
                  onClick={() =>
                    confirmDanger({
                      title: t(`${texts}.deleteTitle`, { name: item.name }),
                      content: '',
                      okText: t('common.delete'),
                      onOk: () => remove.mutateAsync(item),
                    })
                  }
                >
                  {t('common.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
