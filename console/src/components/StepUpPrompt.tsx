import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { registerCodeAsker } from '../api/step-up';

interface Asking {
  wrong: boolean;
  answer: (code: string | null) => void;
}

/**
 * The step-up dialog: the API layer (api/step-up.ts) opens it when a sensitive request needs a fresh
 * code, and resends the request with what is typed. The code lives in this form only while it is open.
 */
export function StepUpPrompt() {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [form] = Form.useForm<{ code: string }>();
  const current = useRef<Asking | null>(null);

  useEffect(
    () =>
      registerCodeAsker(
        (wrong) =>
          new Promise<string | null>((resolve) => {
            current.current?.answer(null); // a second ask replaces a dialog left open
            const next = { wrong, answer: resolve };
            current.current = next;
            setAsking(next);
          }),
      ),
    [],
  );

  const finish = (code: string | null) => {
    asking?.answer(code);
    current.current = null;
    setAsking(null);
    form.resetFields();
  };

  return (
    <Modal
      open={asking !== null}
      title={t('twoFactor.stepUp.title')}
      okText={t('twoFactor.stepUp.submit')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={() => finish(null)}
      destroyOnHidden
      mask={{ closable: false }}
      // Above the confirmation that asked for the action and waits for it (antd gives confirmations 2000).
      zIndex={2050}
    >
      <Typography.Paragraph>{t('twoFactor.stepUp.text')}</Typography.Paragraph>
      {asking?.wrong && <Alert type="error" showIcon title={t('twoFactor.stepUp.wrong')} className="block-gap" role="alert" />}
      <Form
        form={form}
        name="step-up"
        layout="vertical"
        requiredMark={false}
        onFinish={({ code }) => finish(code.replace(/\s/g, ''))}
      >
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          rules={[{ required: true, pattern: /^\s*\d{3}\s?\d{3}\s*$/, message: t('twoFactor.security.codeInvalid') }]}
        >
          <Input autoComplete="one-time-code" inputMode="numeric" autoFocus maxLength={7} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
