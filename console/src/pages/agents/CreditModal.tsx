import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, InputNumber, Modal, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/use-session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { toCents } from '../card-types/card-type-form';
import { useMoney } from '../card-types/card-type-labels';
import { agentKeys, credit, type Agent } from './agent-queries';

/** The API's largest single credit (src/agents/agent.dto.ts): ten million. */
const MAX_AMOUNT = 10_000_000;

interface CreditDraft {
  direction: 'credit' | 'debit';
  amount: number;
  note?: string;
}

/**
 * Adds to or takes from an agent's balance, with a note (one ledger entry). Only an author takes
 * back (a debit); a parent agent's credit is paid from its own balance. Where the account has
 * two-factor sign-in the service asks for a code first, which the console's step-up dialog handles.
 */
export function CreditModal({ agent, onClose }: { agent: Agent; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const money = useMoney();
  const queries = useQueryClient();
  const byAgent = useSession()?.role === 'agent';
  const [form] = Form.useForm<CreditDraft>();
  const direction = Form.useWatch('direction', form) ?? 'credit';
  const texts = 'agents.credit';
  const save = useMutation({
    mutationFn: ({ direction: way, amount, note }: CreditDraft) =>
      credit(agent.id, way === 'debit' ? -toCents(amount) : toCents(amount), note?.trim() ?? ''),
    onSuccess: (_, draft) => {
      void message.success(t(draft.direction === 'debit' ? `${texts}.debited` : `${texts}.credited`, { name: agent.username }));
      void queries.invalidateQueries({ queryKey: agentKeys.all });
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t(`${texts}.title`, { name: agent.username })}
      okText={t(direction === 'debit' ? `${texts}.debit` : `${texts}.credit`)}
      okButtonProps={{ danger: direction === 'debit' }}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>{t(`${texts}.balanceNow`, { amount: money(agent.balance_cents) })}</Typography.Paragraph>
      <Form<CreditDraft>
        form={form}
        name="agent-credit"
        layout="vertical"
        initialValues={{ direction: 'credit' }}
        onFinish={(draft) => save.mutate(draft)}
        disabled={save.isPending}
      >
        {!byAgent && (
          <Form.Item name="direction" label={t(`${texts}.direction`)}>
            <Radio.Group
              optionType="button"
              options={(['credit', 'debit'] as const).map((value) => ({ value, label: t(`${texts}.${value}`) }))}
            />
          </Form.Item>
        )}
        <Form.Item
          name="amount"
          label={t(`${texts}.amount.label`)}
          extra={t(
            byAgent ? `${texts}.amount.fromYours` : direction === 'debit' ? `${texts}.amount.debitHelp` : `${texts}.amount.help`,
          )}
          rules={[{ required: true }, { type: 'number', min: 0.01, max: MAX_AMOUNT }]}
        >
          <InputNumber min={0.01} max={MAX_AMOUNT} precision={2} autoFocus style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="note" label={t(`${texts}.note.label`)} extra={t(`${texts}.note.help`)} rules={[{ max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
      {save.error && <ErrorAlert error={save.error} />}
    </Modal>
  );
}
