import { CopyOutlined, DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Form, Input, Modal, QRCode, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setEnrolmentRequired } from '../../api/session';
import { useSession } from '../../app/use-session';
import { useConfirmDanger } from '../../components/confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoading } from '../../components/PageLoading';
import { saveFile } from '../cards/card-queries';
import { identityQuery } from '../../components/format';
import { confirmTwoFactor, disableTwoFactor, enrolTwoFactor, meQuery, type TwoFactorEnrolment } from './security-queries';

const texts = 'twoFactor.security';
/** 6 digits of the app, or a recovery code (letters, digits, a hyphen). */
const CODE = /^[\s\dA-Za-z-]{6,24}$/;

/**
 * The signed-in account's two-factor sign-in: set up with a QR code (or the key typed by hand) and a
 * first code, the recovery codes shown once, turned off with a code. The secret and the recovery codes
 * live in this page's state only: never in storage, never logged; leaving the page forgets them.
 */
export function SecurityPage() {
  const { t } = useTranslation();
  const session = useSession();
  const me = useQuery(meQuery());
  const queries = useQueryClient();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);

  const enrol = useMutation({ mutationFn: enrolTwoFactor, onSuccess: setEnrolment });
  const confirm = useMutation({
    mutationFn: confirmTwoFactor,
    onSuccess: ({ recovery_codes }) => {
      setEnrolment(null);
      setRecovery(recovery_codes);
    },
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: identityQuery.queryKey });

  if (me.error) return <ErrorAlert error={me.error} />;
  if (!me.data) return <PageLoading />;
  const { two_factor_enabled: enabled, two_factor_required: required } = me.data;

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      {session?.twoFactorEnrolmentRequired && !enabled && (
        <Alert type="warning" showIcon title={t(`${texts}.required`)} className="block-gap" />
      )}
      <Card>
        <Descriptions column={1} size="small" className="block-gap">
          <Descriptions.Item label={t(`${texts}.account`)}>
            {me.data.username} · {t(`roles.${me.data.role}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t(`${texts}.status`)}>
            <Tag color={enabled ? 'green' : 'default'} data-testid="two-factor-status">
              {enabled ? t(`${texts}.on`) : t(`${texts}.off`)}
            </Tag>
          </Descriptions.Item>
        </Descriptions>
        <Typography.Paragraph type="secondary">{t(`${texts}.help`)}</Typography.Paragraph>
        {required && <Typography.Paragraph>{t(`${texts}.requiredOn`)}</Typography.Paragraph>}
        {!enabled && !enrolment && (
          <>
            {enrol.error && <ErrorAlert error={enrol.error} />}
            <Button type="primary" icon={<SafetyCertificateOutlined />} loading={enrol.isPending} onClick={() => enrol.mutate()}>
              {t(`${texts}.start`)}
            </Button>
          </>
        )}
        {!enabled && enrolment && (
          <Enrolment
            enrolment={enrolment}
            pending={confirm.isPending}
            error={confirm.error}
            onCode={(code) => confirm.mutate(code)}
          />
        )}
        {enabled && <Disable onDone={refresh} />}
      </Card>
      {recovery && (
        <RecoveryCodes
          codes={recovery}
          username={me.data.username}
          onDone={() => {
            setRecovery(null);
            setEnrolmentRequired(false);
            refresh();
          }}
        />
      )}
    </>
  );
}

function Enrolment({
  enrolment,
  pending,
  error,
  onCode,
}: {
  enrolment: TwoFactorEnrolment;
  pending: boolean;
  error: Error | null;
  onCode: (code: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid="enrolment">
      <Typography.Title level={2} className="section-title">
        {t(`${texts}.scan`)}
      </Typography.Title>
      {/* Drawn in the browser from the otpauth:// address: the secret never goes to an image service. */}
      <QRCode value={enrolment.otpauth_uri} size={200} bordered aria-label={t(`${texts}.scan`)} />
      <Typography.Paragraph style={{ marginTop: 12 }}>{t(`${texts}.manual`)}</Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Text code copyable data-testid="totp-secret">
          {enrolment.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Title level={2} className="section-title">
        {t(`${texts}.confirmStep`)}
      </Typography.Title>
      <Form<{ code: string }>
        name="two-factor-confirm"
        layout="inline"
        requiredMark={false}
        onFinish={({ code }) => onCode(code.replace(/\s/g, ''))}
      >
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          rules={[{ required: true, pattern: /^\s*\d{3}\s?\d{3}\s*$/, message: t(`${texts}.codeInvalid`) }]}
        >
          <Input autoComplete="one-time-code" inputMode="numeric" maxLength={7} style={{ width: 140 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={pending}>
          {t(`${texts}.confirm`)}
        </Button>
      </Form>
      {error && (
        <div style={{ marginTop: 12 }}>
          <ErrorAlert error={error} />
        </div>
      )}
    </div>
  );
}

function Disable({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirmDanger = useConfirmDanger();
  const disable = useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => {
      void message.success(t(`${texts}.disabled`));
      onDone();
    },
  });
  return (
    <div>
      <Alert type="success" showIcon title={t(`${texts}.enabled`)} className="block-gap" />
      <Typography.Title level={2} className="section-title">
        {t(`${texts}.disableTitle`)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(`${texts}.disableHelp`)}</Typography.Paragraph>
      <Form<{ code: string }>
        name="two-factor-disable"
        layout="inline"
        requiredMark={false}
        onFinish={({ code }) =>
          confirmDanger({
            title: t(`${texts}.disableConfirm`),
            content: t(`${texts}.disableText`),
            okText: t(`${texts}.disable`),
            onOk: () => disable.mutateAsync(code.trim()),
          })
        }
      >
        <Form.Item
          name="code"
          label={t('twoFactor.code')}
          rules={[{ required: true, pattern: CODE, message: t(`${texts}.codeInvalid`) }]}
        >
          <Input autoComplete="one-time-code" maxLength={24} style={{ width: 200 }} />
        </Form.Item>
        <Button danger htmlType="submit" loading={disable.isPending}>
          {t(`${texts}.disable`)}
        </Button>
      </Form>
      {disable.error && (
        <div style={{ marginTop: 12 }}>
          <ErrorAlert error={disable.error} />
        </div>
      )}
    </div>
  );
}

/** The recovery codes, answered once by the service: copy, download, and only "I have stored them" closes it. */
function RecoveryCodes({ codes, username, onDone }: { codes: string[]; username: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const text = `${codes.join('\n')}\n`;
  return (
    <Modal
      open
      title={t('twoFactor.recovery.title')}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      width={560}
      footer={
        <Button type="primary" onClick={onDone}>
          {t('twoFactor.recovery.saved')}
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        title={t('twoFactor.recovery.warning')}
        description={t('twoFactor.recovery.text')}
        className="block-gap"
      />
      <ol className="recovery-codes" data-testid="recovery-codes" style={{ columns: 2, fontFamily: 'monospace', fontSize: 15 }}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <Space>
        <Button
          icon={<CopyOutlined />}
          onClick={() =>
            void navigator.clipboard.writeText(text).then(
              () => message.success(t('twoFactor.recovery.copied')),
              () => undefined,
            )
          }
        >
          {t('twoFactor.recovery.copy')}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          onClick={() => saveFile(new Blob([text], { type: 'text/plain' }), `recovery-codes-${username}.txt`)}
        >
          {t('twoFactor.recovery.download')}
        </Button>
      </Space>
    </Modal>
  );
}
