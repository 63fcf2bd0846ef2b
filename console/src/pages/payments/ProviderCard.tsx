import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Space, Switch, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { useFormat } from '../../components/format';
import { deleteProvider, paymentKeys, saveProvider } from './payment-queries';
import { providerFields, settingsBody, type ProviderSettings } from './provider-fields';

const texts = 'selling.payments';
/** The catalog code of a provider switched on while the service has no PUBLIC_URL. */
const PUBLIC_URL_NOT_SET = 11305;

/**
 * One payment provider of a project: its switch, its fields (secrets write-only: the stored one
 * shows masked and an empty field keeps it), its notify address to give the gateway, and delete.
 * Saving and deleting need a fresh two-factor code when the account has two-factor sign-in (the API
 * layer asks for it).
 */
export function ProviderCard({ projectId, name, stored }: { projectId: string; name: string; stored?: ProviderSettings }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const [form] = Form.useForm<Record<string, unknown>>();
  const fields = providerFields(name, stored);
  const title = t(`${texts}.providers.${name}`, { defaultValue: name });
  const refresh = () => void queries.invalidateQueries({ queryKey: paymentKeys.ofProject(projectId) });

  // The form shows what is stored; secrets start empty (their mask is said under the field).
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue({ enabled: stored?.enabled ?? false, ...(stored?.settings ?? {}) });
  }, [form, stored]);

  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) => saveProvider(projectId, name, settingsBody(fields, values)),
    onSuccess: () => {
      refresh();
      void message.success(t(`${texts}.saved`));
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteProvider(projectId, name),
    onSuccess: () => {
      refresh();
      void message.success(t(`${texts}.deleted`));
    },
    onError: notifyError,
  });

  const status = !stored ? (
    <Tag>{t(`${texts}.notSetUp`)}</Tag>
  ) : stored.enabled ? (
    <Tag color="green">{t(`${texts}.on`)}</Tag>
  ) : (
    <Tag>{t(`${texts}.off`)}</Tag>
  );

  return (
    <Card
      title={
        <Space>
          {title}
          {status}
        </Space>
      }
      className="payment-provider"
      data-testid={`provider-${name}`}
      extra={
        stored && (
          <Typography.Text type="secondary">{t(`${texts}.updated`, { at: format.dateTime(stored.updated_at) })}</Typography.Text>
        )
      }
    >
      {stored?.notify_url && (
        <div className="block-gap">
          <Typography.Text strong>{t(`${texts}.notifyUrl`)}: </Typography.Text>
          <Typography.Text code copyable data-testid={`notify-url-${name}`}>
            {stored.notify_url}
          </Typography.Text>
          <div>
            <Typography.Text type="secondary">{t(`${texts}.notifyUrlHelp`)}</Typography.Text>
          </div>
        </div>
      )}
      <Form
        form={form}
        name={`payments-${name}`}
        layout="vertical"
        style={{ maxWidth: 560 }}
        onFinish={(values) => save.mutate(values)}
        onValuesChange={() => save.reset()}
      >
        <Form.Item name="enabled" label={t(`${texts}.enabled`)} valuePropName="checked">
          <Switch />
        </Form.Item>
        {fields.map((field) => {
          const label = t(`${texts}.fields.${field.name}`, { defaultValue: field.name });
          const mask = stored?.secrets[field.name];
          const mustType = !field.optional && (!field.secret || !mask);
          return (
            <Form.Item
              key={field.name}
              name={field.name}
              label={field.optional ? `${label} (${t(`${texts}.optional`)})` : label}
              rules={[{ required: mustType, whitespace: true, message: t(`${texts}.required`) }]}
              extra={
                field.secret &&
                (mask ? (
                  <span data-testid={`mask-${name}-${field.name}`}>{t(`${texts}.secretStored`, { mask })}</span>
                ) : (
                  t(`${texts}.secretNone`)
                ))
              }
            >
              {field.multiline ? (
                <Input.TextArea
                  rows={4}
                  placeholder={field.secret ? (mask ?? undefined) : field.placeholder}
                  autoComplete="off"
                />
              ) : field.secret ? (
                <Input.Password placeholder={mask ?? field.placeholder} autoComplete="new-password" />
              ) : (
                <Input placeholder={field.placeholder} autoComplete="off" />
              )}
            </Form.Item>
          );
        })}
        {save.error && (
          <div className="block-gap">
            <ErrorAlert error={save.error} own={{ [PUBLIC_URL_NOT_SET]: t(`${texts}.publicUrlRefused`) }} />
          </div>
        )}
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t(`${texts}.save`)}
          </Button>
          {stored && (
            <Button
              danger
              loading={remove.isPending}
              onClick={() =>
                confirmDanger({
                  title: t(`${texts}.deleteTitle`, { provider: title }),
                  content: t(`${texts}.deleteContent`),
                  okText: t(`${texts}.delete`),
                  onOk: () => remove.mutateAsync(),
                })
              }
            >
              {t(`${texts}.delete`)}
            </Button>
          )}
        </Space>
      </Form>
    </Card>
  );
}
