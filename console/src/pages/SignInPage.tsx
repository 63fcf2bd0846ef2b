import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { saveSession, takeSessionEnded } from '../api/session';
import { queryClient } from '../app/query-client';
import { useSession } from '../app/use-session';
import { ErrorAlert } from '../components/ErrorAlert';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { type Credentials, login, loginWithCode, type SignInChallenge } from './sign-in-queries';

/** Where to go after signing in: a page of the console only, never another site. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/projects';
}

export function SignInPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const session = useSession();
  const [ended] = useState(takeSessionEnded);
  const signIn = useMutation({
    // An account with two-factor sign-in answers a challenge: the code step below trades it for the token.
    mutationFn: login,
    onSuccess: (signedIn) => {
      if ('challenge' in signedIn) return setChallenge(signedIn);
      queryClient.clear();
      saveSession(signedIn);
      void navigate(safeNext(params.get('next')), { replace: true });
    },
  });
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  const secondStep = useMutation({
    mutationFn: (code: string) => loginWithCode(challenge!, code),
    onSuccess: (signedIn) => {
      queryClient.clear();
      saveSession(signedIn);
      void navigate(safeNext(params.get('next')), { replace: true });
    },
  });

  if (session && !signIn.isPending) return <Navigate to={safeNext(params.get('next'))} replace />;

  return (
    <main className="sign-in">
      <div className="sign-in-top">
        <LanguageSwitch />
      </div>
      <Card
        title={
          <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
            {t('app.title')}
          </Typography.Title>
        }
      >
        {ended && <Alert type="info" showIcon title={t('signIn.expired')} className="block-gap" />}
        {challenge ? (
          <Form<{ code: string }>
            name="sign-in-2fa"
            layout="vertical"
            requiredMark={false}
            onFinish={({ code }) => secondStep.mutate(code)}
            disabled={secondStep.isPending}
          >
            <Typography.Paragraph>{t('twoFactor.prompt')}</Typography.Paragraph>
            <Form.Item name="code" label={t('twoFactor.code')} rules={[{ required: true }]}>
              <Input autoComplete="one-time-code" inputMode="numeric" autoFocus maxLength={11} />
            </Form.Item>
            {secondStep.error && (
              <div className="block-gap">
                <ErrorAlert error={secondStep.error} />
              </div>
            )}
            <Button type="primary" htmlType="submit" block loading={secondStep.isPending}>
              {t('twoFactor.submit')}
            </Button>
            <Button type="link" block onClick={() => setChallenge(null)}>
              {t('twoFactor.back')}
            </Button>
          </Form>
        ) : (
          <Form<Credentials>
            name="sign-in"
            layout="vertical"
            requiredMark={false}
            onFinish={(values) => signIn.mutate(values)}
            disabled={signIn.isPending}
          >
            <Form.Item name="username" label={t('signIn.username')} rules={[{ required: true }]}>
              <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item name="password" label={t('signIn.password')} rules={[{ required: true }]}>
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
            </Form.Item>
            {signIn.error && (
              <div className="block-gap">
                <ErrorAlert
                  error={signIn.error}
                  own={{
                    11001: t('signIn.failures.11001'),
                    11004: t('signIn.failures.11004'),
                    10302: t('signIn.failures.10302'),
                  }}
                />
              </div>
            )}
            <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
              {t('signIn.submit')}
            </Button>
          </Form>
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
          {t('signIn.hint')}
        </Typography.Paragraph>
      </Card>
    </main>
  );
}
