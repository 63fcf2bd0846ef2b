import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, InputNumber, Radio, Switch, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, useNotifyError } from '../../components/ErrorAlert';
import { InterfaceLabel } from '../../components/InterfaceLabel';
import { PageLoading } from '../../components/PageLoading';
import {
  platformInterfacesQuery,
  platformKeys,
  platformSettingsQuery,
  savePlatformSettings,
  setPlatformInterface,
  type PlatformInterface,
  type PlatformSettingsChange as Settings,
} from './platform-queries';

const MODES = ['base_package', 'entitlement', 'self_service'] as const;

/** The platform's switches: how Connect opens, metering, and each client interface platform-wide. */
export function PlatformSettingsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notifyError = useNotifyError();
  const queries = useQueryClient();
  const settings = useQuery(platformSettingsQuery());
  const interfaces = useQuery(platformInterfacesQuery());
  const save = useMutation({
    mutationFn: savePlatformSettings,
    onSuccess: (saved) => {
      queries.setQueryData(platformKeys.settings, saved);
      void message.success(t('common.saved'));
    },
  });
  const toggle = useMutation({
    mutationFn: ({ name, enabled }: { name: PlatformInterface['name']; enabled: boolean }) => setPlatformInterface(name, enabled),
    onSuccess: () => void queries.invalidateQueries({ queryKey: platformKeys.interfaces }),
    onError: notifyError,
  });
  const texts = 'platform.settings';

  if (settings.error) return <ErrorAlert error={settings.error} />;
  if (!settings.data) return <PageLoading />;
  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      <Card>
        <Form
          name="platform-settings"
          layout="vertical"
          initialValues={settings.data}
          key={settings.data.updated_at}
          onFinish={(values: Settings) => save.mutate(values)}
        >
          <Form.Item name="connect_opening_mode" label={t(`${texts}.mode`)}>
            <Radio.Group
              options={MODES.map((mode) => ({ value: mode, label: t(`${texts}.modes.${mode}`) }))}
              style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            />
          </Form.Item>
          <Form.Item
            name="connect_min_level"
            label={t(`${texts}.minLevel`)}
            extra={t(`${texts}.minLevelHelp`)}
            rules={[{ required: true }]}
          >
            <InputNumber min={0} max={2_147_483_647} precision={0} />
          </Form.Item>
          <Form.Item
            name="legacy_metering_enabled"
            label={t(`${texts}.metering`)}
            extra={t(`${texts}.meteringHelp`)}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          <Form.Item
            name="admin_two_factor_required"
            label={t(`${texts}.twoFactor`)}
            extra={t(`${texts}.twoFactorHelp`)}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          <Form.Item
            name="webhook_private_targets"
            label={t(`${texts}.webhookPrivate`)}
            extra={t(`${texts}.webhookPrivateHelp`)}
            valuePropName="checked"
          >
            <Switch />
          </Form.Item>
          {save.error && <ErrorAlert error={save.error} />}
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Form>
      </Card>
      <Typography.Title level={2} className="section-title">
        {t(`${texts}.interfaces`)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(`${texts}.interfacesHelp`)}</Typography.Paragraph>
      {interfaces.error && <ErrorAlert error={interfaces.error} />}
      <Table<PlatformInterface>
        rowKey="name"
        size="small"
        loading={interfaces.isPending}
        dataSource={interfaces.data?.items}
        pagination={false}
        columns={[
          { title: t(`${texts}.name`), dataIndex: 'name', render: (name: string) => <InterfaceLabel name={name} /> },
          {
            title: t(`${texts}.enabled`),
            dataIndex: 'enabled',
            render: (enabled: boolean, row) => (
              <Switch
                checked={enabled}
                aria-label={`${row.name} ${t(`${texts}.enabled`)}`}
                loading={toggle.isPending && toggle.variables?.name === row.name}
                onChange={(next) => toggle.mutate({ name: row.name, enabled: next })}
              />
            ),
          },
        ]}
      />
    </>
  );
}
