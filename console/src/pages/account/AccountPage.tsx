import { LockOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/use-session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { changeOwnPassword } from './account-queries';

const texts = 'account';
/** The service's rule for an admin account's password (ChangePasswordDto): 8 to 128 characters. */
const MIN = 8;
const MAX = 128;

interface PasswordForm {
  current: string;
  next: string;
  repeat: string;
}

/**
 * The signed-in account's own page: who it is, and its password changed with the current one
 * (`POST /admin/v1/auth/password`). The service ends the account's other sessions and keeps this
 * one, so nothing changes in this tab; an account with two-factor sign-in is asked for a code by the
 * step-up dialog of the API client. The passwords live in this form only and are cleared after.
 */
export function AccountPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const [form] = Form.useForm<PasswordForm>();
  const change = useMutation({
    mutationFn: ({ current, next }: PasswordForm) => changeOwnPassword(current, next),
    onSuccess: () => {
      form.resetFields();
      void message.success(t(`${texts}.changed`));
    },
  });

  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t(`${texts}.title`)}</Typography.Title>
      </div>
      <Card>
        <Descriptions column={1} size="small" className="block-gap">
          <Descriptions.Item label={t(`${texts}.account`)}>
            {session?.username} · {session ? t(`roles.${session.role}`) : ''}
          </Descriptions.Item>
        </Descriptions>
        <Typography.Title level={2} className="section-title">
          {t(`${texts}.passwordTitle`)}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t(`${texts}.passwordHelp`)}</Typography.Paragraph>
        <Form<PasswordForm>
          form={form}
          name="own-password"
          layout="vertical"
          requiredMark={false}
          style={{ maxWidth: 420 }}
          onFinish={(values) => change.mutate(values)}
        >
          {/* The user name, for the browser's password manager to file the new password under. */}
          <input type="text" autoComplete="username" value={session?.username ?? ''} readOnly hidden />
          <Form.Item name="current" label={t(`${texts}.current`)} rules={[{ required: true, max: MAX }]}>
            <Input.Password autoComplete="current-password" maxLength={MAX} />
          </Form.Item>
          <Form.Item
            name="next"
            label={t(`${texts}.next`)}
            extra={t(`${texts}.rules`)}
            dependencies={['current']}
            rules={[
              { required: true, min: MIN, max: MAX, message: t(`${texts}.rules`) },
              ({ getFieldValue }) => ({
                validator: (_, value: string | undefined) =>
                  value && value === getFieldValue('current') ? Promise.reject(new Error(t(`${texts}.same`))) : Promise.resolve(),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" maxLength={MAX} />
          </Form.Item>
          <Form.Item
            name="repeat"
            label={t(`${texts}.repeat`)}
            dependencies={['next']}
            rules={[
              { required: true, message: t(`${texts}.mismatch`) },
              ({ getFieldValue }) => ({
                validator: (_, value: string | undefined) =>
                  !value || value === getFieldValue('next')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t(`${texts}.mismatch`))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" maxLength={MAX} />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<LockOutlined />} loading={change.isPending}>
            {t(`${texts}.submit`)}
          </Button>
        </Form>
        {change.error && (
          <div style={{ marginTop: 12 }}>
            <ErrorAlert error={change.error} own={{ 11001: t(`${texts}.failures.11001`), 10302: t(`${texts}.failures.10302`) }} />
          </div>
        )}
      </Card>
    </>
  );
}
