import { Checkbox, Form, Input, Modal, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { ErrorAlert, type OwnTexts } from '../../components/ErrorAlert';
import type { Webhook } from './webhook-queries';

export type WebhookFormat = Webhook['format'];
export type WebhookEvent = Webhook['events'][number];

export const WEBHOOK_FORMATS: WebhookFormat[] = ['json', 'wecom', 'dingtalk', 'feishu', 'telegram'];
/** What an author subscribes to: every type of decisions §20 but webhook.test, which the test button sends whatever the subscription. */
export const SUBSCRIBABLE_EVENTS: Array<Exclude<WebhookEvent, 'webhook.test'>> = [
  'card.activated',
  'card.banned',
  'card.unbanned',
  'card.expiring_soon',
  'card.topped_up',
  'device.bound',
  'device.unbound',
  'session.forced_offline',
  'user.registered',
  'order.created',
  'order.paid',
  'agent.balance_low',
];

export interface WebhookDraft {
  url: string;
  format: WebhookFormat;
  events: WebhookEvent[];
  enabled: boolean;
}

/** Telegram's sendMessage needs the chat in the URL; the service refuses it without (checked here first, in the user's words). */
function namesTelegramChat(url: string): boolean {
  try {
    return new URL(url).searchParams.has('chat_id');
  } catch {
    return true; // not a URL at all: the service's refusal says why
  }
}

/** The service's reasons for refusing a target URL (WEBHOOK_TARGET_REFUSED, details.reason), each with the console's text for it. */
const REFUSAL_REASONS: Record<string, string> = {
  'the host does not resolve to a public address': 'notPublic',
  'not a URL': 'notUrl',
  'only http and https URLs': 'scheme',
  'credentials in the URL are not accepted': 'credentials',
  'a telegram URL names its chat: ?chat_id=…': 'telegramChat',
};
const WEBHOOK_TARGET_REFUSED = 11010;

/** A refused target said in the console's language and with what to do, rather than the service's English reason. */
function refusalText(error: unknown, t: (key: string) => string): OwnTexts | undefined {
  if (!(error instanceof ApiError) || error.code !== WEBHOOK_TARGET_REFUSED) return undefined;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  const key = typeof reason === 'string' ? REFUSAL_REASONS[reason] : undefined;
  return key ? { [WEBHOOK_TARGET_REFUSED]: t(`webhooks.refused.${key}`) } : undefined;
}

/** Create or edit an endpoint: URL, format (with where its URL comes from), the events as a checklist. */
export function WebhookModal({
  editing,
  saving,
  error,
  onSave,
  onCancel,
}: {
  /** The endpoint edited; none for a new one. Mounted only while open, so each opening starts from these values. */
  editing?: Webhook;
  saving: boolean;
  error: unknown;
  onSave: (draft: WebhookDraft) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<WebhookDraft>();
  const format = Form.useWatch('format', form) ?? 'json';
  const texts = 'webhooks';

  const initial: WebhookDraft = editing
    ? { url: editing.url, format: editing.format, events: editing.events, enabled: editing.enabled }
    : { url: '', format: 'json', events: [], enabled: true };

  return (
    <Modal
      open
      title={t(editing ? `${texts}.editTitle` : `${texts}.createTitle`)}
      okText={editing ? t('common.save') : t('common.create')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onCancel}
      width={640}
      destroyOnHidden
    >
      <Form
        form={form}
        name="webhook"
        layout="vertical"
        initialValues={initial}
        onFinish={(draft) => onSave({ ...draft, url: draft.url.trim() })}
      >
        <Form.Item name="format" label={t(`${texts}.format`)} extra={t(`${texts}.formatHelp.${format}`)}>
          <Select options={WEBHOOK_FORMATS.map((value) => ({ value, label: t(`${texts}.formats.${value}`) }))} />
        </Form.Item>
        <Form.Item
          name="url"
          label={t(`${texts}.url`)}
          rules={[
            { required: true, whitespace: true, message: t(`${texts}.urlRequired`) },
            { max: 2048 },
            {
              validator: async (_, url: string) => {
                if (format === 'telegram' && url && !namesTelegramChat(url.trim())) throw new Error(t(`${texts}.telegramChat`));
              },
            },
          ]}
        >
          <Input maxLength={2048} placeholder="https://" />
        </Form.Item>
        <Form.Item
          name="events"
          label={t(`${texts}.events`)}
          rules={[{ required: true, type: 'array', min: 1, message: t(`${texts}.eventsRequired`) }]}
        >
          <Checkbox.Group style={{ width: '100%' }}>
            <Space orientation="vertical" size={4}>
              {SUBSCRIBABLE_EVENTS.map((type) => (
                <Checkbox key={type} value={type} aria-label={type}>
                  <Typography.Text code>{type}</Typography.Text>{' '}
                  <Typography.Text type="secondary">{t(`${texts}.eventHelp.${type}`)}</Typography.Text>
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
        <Form.Item name="enabled" label={t(`${texts}.enabled`)} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
      {error ? <ErrorAlert error={error} own={refusalText(error, t)} /> : null}
    </Modal>
  );
}
