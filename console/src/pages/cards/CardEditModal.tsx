import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Card } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useTimeZone } from '../../components/time-zone';
import { SeatLimitInputs } from './SeatLimitInputs';
import { updateCard } from './card-queries';
import { LIMITS, changesOf, editableParts, expiryChanged, initialValues, type CardEditValues } from './card-edit';

interface Props {
  projectId: string;
  card: Card;
  onSaved: (card: Card) => void;
  onClose: () => void;
}

/**
 * Everything `PATCH /cards/:cardId` changes on one card, checked as the API checks it; only what
 * changed is sent. Fields the card does not allow (an expiry before the first login, uses on a time
 * card, anything but limits and note on a consumed top-up card) are not offered.
 */
export function CardEditModal({ projectId, card, onSaved, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CardEditValues>();
  // The date is entered as the wall clock of the zone the user chose, as every date is shown.
  const zone = useTimeZone();
  const parts = editableParts(card);
  const expiry = Form.useWatch('expiry', form);
  const unlimitedSeats = Form.useWatch('unlimited_seats', form);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof changesOf>) => updateCard(projectId, card.id, body),
    onSuccess: (updated) => {
      void message.success(t('cardsManage.edit.saved'));
      onSaved(updated);
    },
  });
  const submit = (values: CardEditValues) => {
    const body = changesOf(card, values, zone);
    if (Object.keys(body).length === 0) {
      void message.info(t('settings.noChanges'));
      return onClose();
    }
    save.mutate(body);
  };
  const field = (name: string) => ({ label: t(`cardsManage.edit.${name}.label`), extra: t(`cardsManage.edit.${name}.help`) });
  const integer = (min: number, max: number) => ({
    type: 'integer' as const,
    min,
    max,
    message: t('cardsManage.edit.between', { min, max }),
  });

  return (
    <Modal
      open
      title={t('cardsManage.edit.title', { code: card.code })}
      okText={t('common.save')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      width={600}
    >
      <Form<CardEditValues>
        form={form}
        name="edit-card"
        layout="vertical"
        initialValues={initialValues(card, zone)}
        onFinish={submit}
        disabled={save.isPending}
      >
        {parts.expiry && (
          <Form.Item {...field('expiry')}>
            <Space wrap>
              <Form.Item name="expiry" noStyle>
                <Radio.Group
                  options={[
                    { value: 'date', label: t('cardsManage.edit.expiryDate') },
                    { value: 'permanent', label: t('common.permanent') },
                  ]}
                />
              </Form.Item>
              <Form.Item
                name="expires_at"
                noStyle
                rules={[
                  { required: expiry !== 'permanent', message: t('cardsManage.edit.expiryRequired') },
                  {
                    validator: async (_, value: string) => {
                      if (value && Number.isNaN(Date.parse(value))) throw new Error(t('cardsManage.edit.expiryRequired'));
                    },
                  },
                ]}
              >
                <Input
                  type="datetime-local"
                  aria-label={t('cardsManage.edit.expiry.label')}
                  disabled={expiry === 'permanent'}
                  style={{ width: 220 }}
                  suffix={<Typography.Text type="secondary">{zone}</Typography.Text>}
                />
              </Form.Item>
            </Space>
          </Form.Item>
        )}
        {!parts.expiry && card.status !== 'consumed' && (
          <Typography.Paragraph type="secondary">{t('cardsManage.edit.notActivated')}</Typography.Paragraph>
        )}
        {parts.extend && (
          <Form.Item
            name="extend_days"
            {...field(card.activated_at ? 'extend' : 'extendDuration')}
            dependencies={['expiry', 'expires_at']}
            rules={[
              integer(1, LIMITS.extendDays),
              {
                validator: async (_, days: number | null) => {
                  if (days && parts.expiry && expiryChanged(card, form.getFieldsValue(['expiry', 'expires_at']), zone))
                    throw new Error(t('cardsManage.edit.oneOfExpiry'));
                },
              },
            ]}
          >
            <InputNumber precision={0} addonAfter={t('bulk.days')} style={{ width: 220 }} />
          </Form.Item>
        )}
        {parts.uses && (
          <Form.Item
            name="uses_left"
            {...field('uses')}
            rules={[
              { required: true, message: t('cardsManage.edit.between', { min: 0, max: LIMITS.uses }) },
              integer(0, LIMITS.uses),
            ]}
          >
            <InputNumber precision={0} style={{ width: 220 }} />
          </Form.Item>
        )}
        <Form.Item
          name="device_limit"
          {...field('devices')}
          rules={[
            { required: true, message: t('cardsManage.edit.between', { min: 1, max: LIMITS.devices }) },
            integer(1, LIMITS.devices),
          ]}
        >
          <InputNumber precision={0} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item {...field('seats')}>
          <SeatLimitInputs
            label={t('cardsManage.edit.seats.label')}
            unlimited={unlimitedSeats}
            rules={[
              { required: !unlimitedSeats, message: t('cardsManage.edit.between', { min: 1, max: LIMITS.seats }) },
              integer(1, LIMITS.seats),
            ]}
          />
        </Form.Item>
        <Form.Item name="note" {...field('note')} rules={[{ max: LIMITS.note }]}>
          <Input.TextArea maxLength={LIMITS.note} showCount autoSize={{ minRows: 1, maxRows: 4 }} />
        </Form.Item>
        <Form.Item
          name="holder_email"
          {...field('holderEmail')}
          rules={[{ type: 'email', max: LIMITS.holderEmail, message: t('cardsManage.edit.emailInvalid') }]}
        >
          <Input type="email" maxLength={LIMITS.holderEmail} autoComplete="off" />
        </Form.Item>
        {save.error && <ErrorAlert error={save.error} />}
      </Form>
    </Modal>
  );
}
