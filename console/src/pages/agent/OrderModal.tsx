import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, InputNumber, Modal, Result, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAllowance, useMoney } from '../card-types/card-type-labels';
import { saveFile } from '../cards/card-queries';
import { meKeys, placeOrder, type SellableType } from './me-queries';

const INSUFFICIENT_BALANCE = 11301;
/** The API's most cards in one order (decisions §19). */
const MAX_COUNT = 1000;

/** The order's number, made once per opened form: a retry or a double click sends the same one, and the service answers the same order. */
function newOrderId(): string {
  return `console-${crypto.randomUUID()}`;
}

/** What the refusal says of the balance (its details: `balance_cents`, `needed_cents`), when it says it. */
function balanceFacts(error: unknown): { balance: number; needed: number } | null {
  if (!(error instanceof ApiError) || error.code !== INSUFFICIENT_BALANCE) return null;
  const details = error.details as { balance_cents?: unknown; needed_cents?: unknown } | undefined;
  return typeof details?.balance_cents === 'number' && typeof details.needed_cents === 'number'
    ? { balance: details.balance_cents, needed: details.needed_cents }
    : null;
}

/**
 * An order of cards of one type at the agent's price: the total before it is placed, the codes after
 * (copy, download, or open them in the agent's cards). Not enough balance (402, 11301) is said in
 * words with what the order costs and what the balance is; nothing was debited then.
 */
export function OrderModal({
  type,
  balanceCents,
  onClose,
  onShowCards,
}: {
  type: SellableType;
  balanceCents: number;
  onClose: () => void;
  onShowCards: (batchId: string | null) => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const allowance = useAllowance();
  const queries = useQueryClient();
  const [orderId] = useState(newOrderId);
  const [form] = Form.useForm<{ count: number }>();
  const count = Form.useWatch('count', form) ?? 10;
  const texts = 'agents.order';
  const order = useMutation({
    mutationFn: (cards: number) => placeOrder(type, orderId, cards),
    onSettled: () => queries.invalidateQueries({ queryKey: meKeys.me }),
  });
  const total = type.agent_price_cents * (Number.isInteger(count) ? count : 0);
  const short = balanceFacts(order.error);

  if (order.data) {
    const done = order.data;
    const codes = done.items.map((card) => card.code).join('\n');
    return (
      <Modal
        open
        title={t(`${texts}.title`, { name: type.name })}
        onCancel={onClose}
        footer={<Button onClick={onClose}>{t('common.close')}</Button>}
        width={640}
      >
        <Result
          status="success"
          title={t(`${texts}.doneTitle`, { count: done.items.length })}
          subTitle={t(`${texts}.doneText`, { order: done.order_id, amount: money(done.total_cents) })}
          extra={
            <Space wrap>
              <Button icon={<CopyOutlined />} onClick={() => void navigator.clipboard?.writeText(codes)}>
                {t('common.copy')}
              </Button>
              <Button
                icon={<DownloadOutlined />}
                onClick={() => saveFile(new Blob([`${codes}\n`], { type: 'text/plain' }), `order-${done.order_id}.txt`)}
              >
                {t('generate.download')}
              </Button>
              <Button type="primary" onClick={() => onShowCards(done.batch_id)}>
                {t(`${texts}.showCards`)}
              </Button>
            </Space>
          }
        />
        <Input.TextArea
          readOnly
          value={codes}
          autoSize={{ minRows: 3, maxRows: 12 }}
          aria-label={t('cards.code')}
          data-testid="ordered-codes"
        />
      </Modal>
    );
  }

  return (
    <Modal
      open
      title={t(`${texts}.title`, { name: type.name })}
      okText={t(`${texts}.submit`)}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={order.isPending}
      okButtonProps={{ disabled: order.isPending }}
      destroyOnHidden
    >
      <Descriptions
        size="small"
        column={1}
        className="block-gap"
        items={[
          { key: 'project', label: t('agents.shop.project'), children: type.project_name },
          { key: 'allowance', label: t('agents.shop.allowance'), children: allowance(type) },
          { key: 'price', label: t('agents.shop.yourPrice'), children: money(type.agent_price_cents) },
        ]}
      />
      <Form
        form={form}
        name="order"
        layout="vertical"
        initialValues={{ count: 10 }}
        onFinish={({ count: cards }) => order.mutate(cards)}
        disabled={order.isPending}
      >
        <Form.Item
          name="count"
          label={t(`${texts}.count.label`)}
          extra={t(`${texts}.count.help`)}
          rules={[{ required: true }, { type: 'integer', min: 1, max: MAX_COUNT }]}
        >
          <InputNumber min={1} max={MAX_COUNT} precision={0} autoFocus style={{ width: '100%' }} />
        </Form.Item>
      </Form>
      <Descriptions
        size="small"
        column={1}
        bordered
        className="block-gap"
        items={[
          { key: 'total', label: t(`${texts}.total`), children: <strong data-testid="order-total">{money(total)}</strong> },
          { key: 'balance', label: t(`${texts}.balance`), children: money(balanceCents) },
        ]}
      />
      {total > balanceCents && !order.error && (
        <Alert type="warning" showIcon className="block-gap" title={t(`${texts}.tooLittle`)} />
      )}
      {order.error && (
        <ErrorAlert
          error={order.error}
          own={{
            [INSUFFICIENT_BALANCE]: short
              ? t(`${texts}.insufficient`, { cost: money(short.needed), balance: money(short.balance) })
              : t(`${texts}.insufficientPlain`),
          }}
        />
      )}
    </Modal>
  );
}
